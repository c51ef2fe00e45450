package dev.toolsmith.librarian.airlock.notification;

import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.airlock.PageLimit;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.identity.SecurityIdentity;
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
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Admin notifications: new pending tools, gaps, build failures, disabled plugins and failing scans.
 * Everyone who may see them shares one inbox, but each reader has their own read state
 * ({@link NotificationReads}).
 */
@Path("/notifications")
@Tag(name = "Airlock: notifications")
@Produces(MediaType.APPLICATION_JSON)
public class NotificationResource {

    private final NotificationReads reads;
    private final SecurityIdentity identity;

    public NotificationResource(NotificationReads reads, SecurityIdentity identity) {
        this.reads = reads;
        this.identity = identity;
    }

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
    @Operation(summary = "Page through notifications, newest first, with the unread count",
            description = "readAt and unread are the caller's own: each reader marks what they have read.")
    public Uni<ItemPage> list(@QueryParam("unreadOnly") @DefaultValue("false") boolean unreadOnly,
            @QueryParam("page") @DefaultValue("0") int page, @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, PageLimit.MAX_PAGE_SIZE);
        String reader = reader();
        return Panache.withSession(() -> reads.page(reader, unreadOnly, page, size)
                .chain(rows -> reads.count(reader, unreadOnly).chain(total -> reads.count(reader, true)
                        .map(unread -> new ItemPage(rows.stream().map(NotificationResource::item).toList(), unread,
                                page, size, total)))));
    }

    @POST
    @Path("{id}/read")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Mark one notification read for the caller")
    public Uni<Response> read(@PathParam("id") UUID id) {
        String reader = reader();
        return Panache.withTransaction(() -> reads.markRead(reader, id)).map(found -> {
            if (!found) {
                throw new NotFoundException("no notification " + id);
            }
            return Response.noContent().build();
        });
    }

    @POST
    @Path("read-all")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Mark every notification read for the caller")
    public Uni<Marked> readAll() {
        String reader = reader();
        return Panache.withTransaction(() -> reads.markAllRead(reader)).map(n -> new Marked(n));
    }

    /** The person (or key) asking: the airlock UI forwards its signed-in user as the principal. */
    private String reader() {
        return identity.getPrincipal().getName();
    }

    private static Item item(NotificationReads.Row row) {
        return new Item(row.id(), row.kind(), row.severity(), row.title(), row.message(), row.subjectId(), row.createdAt(),
                row.readAt());
    }
}
