package dev.toolsmith.librarian.airlock;

import dev.toolsmith.eventing.security.Roles;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Page;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Admin notifications: new pending tools, gaps, build failures, disabled plugins and failing scans.
 * Read state is shared by all admins (one inbox for the installation).
 */
@Path("/notifications")
@Tag(name = "Airlock: notifications")
@Produces(MediaType.APPLICATION_JSON)
public class NotificationResource {

    /** One notification. */
    public record Item(UUID id, String kind, String severity, String title, String message, String subjectId,
            OffsetDateTime createdAt, OffsetDateTime readAt) {
    }

    /** A page, newest first, with the number still unread. */
    public record ItemPage(List<Item> items, long unread, int page, int size, long total) {
    }

    /** How many were marked read. */
    public record Marked(long marked) {
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Page through notifications, newest first, with the unread count")
    public Uni<ItemPage> list(@QueryParam("unreadOnly") @DefaultValue("false") boolean unreadOnly,
            @QueryParam("page") @DefaultValue("0") int page, @QueryParam("size") @DefaultValue("50") int size) {
        if (page < 0 || size < 1 || size > ReviewResource.MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be ≥ 0 and size within 1.." + ReviewResource.MAX_PAGE_SIZE);
        }
        String where = unreadOnly ? "readAt is null" : "1 = 1";
        return Panache.withSession(() -> NotificationEntity.<NotificationEntity>find(where + " order by createdAt desc, id")
                .page(Page.of(page, size)).list()
                .chain(rows -> NotificationEntity.count(where).chain(total -> NotificationEntity.count("readAt is null")
                        .map(unread -> new ItemPage(rows.stream().map(NotificationResource::item).toList(), unread,
                                page, size, total)))));
    }

    @POST
    @Path("{id}/read")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Mark one notification read")
    public Uni<Response> read(@PathParam("id") UUID id) {
        return Panache.withTransaction(() -> NotificationEntity.<NotificationEntity>findById(id).map(row -> {
            if (row == null) {
                throw new NotFoundException("no notification " + id);
            }
            if (row.readAt == null) {
                row.readAt = OffsetDateTime.now(ZoneOffset.UTC);
            }
            return Response.noContent().build();
        }));
    }

    @POST
    @Path("read-all")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Mark every notification read")
    public Uni<Marked> readAll() {
        return Panache.withTransaction(() -> NotificationEntity.update("readAt = ?1 where readAt is null",
                OffsetDateTime.now(ZoneOffset.UTC))).map(n -> new Marked(n));
    }

    private static Item item(NotificationEntity row) {
        return new Item(row.id, row.kind, row.severity, row.title, row.message, row.subjectId, row.createdAt, row.readAt);
    }
}
