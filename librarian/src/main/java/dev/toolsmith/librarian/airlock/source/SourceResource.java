package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.airlock.ListOrder;
import dev.toolsmith.librarian.airlock.LogSafeText;
import dev.toolsmith.librarian.airlock.PageLimit;
import dev.toolsmith.librarian.airlock.SearchText;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Tool sources: where external tools come from. Admins change them; viewers read them. */
@Path("/tools/sources")
@Tag(name = "Airlock: sources", description = "OpenAPI documents, git repositories of manifests, marketplace"
        + " indexes and (when enabled) a public API directory, scanned into the review queue")
@Produces(MediaType.APPLICATION_JSON)
public class SourceResource {

    static final int DEFAULT_PAGE_SIZE = 20;
    /** The whole list when no page is asked for (sources are few: registered by hand). */
    private static final int ALL = 100_000;

    private final SourceService sources;
    private final SourceScanner scanner;
    private final SecurityIdentity identity;

    public SourceResource(SourceService sources, SourceScanner scanner, SecurityIdentity identity) {
        this.sources = sources;
        this.scanner = scanner;
        this.identity = identity;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Register a source", description = "It is scanned by the next scheduler tick (a directory"
            + " only on demand).")
    @APIResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = SourceView.class)))
    @APIResponse(responseCode = "400", description = "A field is missing or invalid; the message names it",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> create(SourceRequest request) {
        return sources.create(request, actor()).map(view -> Response.created(URI.create("/tools/sources/" + view.id()))
                .entity(view).build());
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Sources with their scan state and counts",
            description = "Without page or size: every source, by name, as a plain array (filters and sort still"
                    + " apply). With page or size: one page, {items, page, size, total}.")
    @APIResponse(responseCode = "400", description = "An unknown status, type or sort key, a search text over 200"
            + " characters, or a bad page", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Object> list(
            @Parameter(description = "text found (case-insensitively) in the name or URL; at most 200 characters")
            @QueryParam("q") String q,
            @Parameter(description = "NEW, SCANNING, OK or FAILED") @QueryParam("status") String status,
            @Parameter(description = "openapi, git, marketplace or directory") @QueryParam("type") String type,
            @Parameter(description = "name, type, status, lastscan, found, new, changed or created; a leading -"
                    + " sorts descending (default name)") @QueryParam("sort") String sort,
            @QueryParam("page") Integer page,
            @QueryParam("size") Integer size) {
        SourceService.Filter filter = new SourceService.Filter(SearchText.pattern(q), status(status), type(type));
        String orderBy = ListOrder.orderBy(sort, "name", SourceService.SORTS);
        if (page == null && size == null) {
            return sources.list(filter, orderBy, 0, ALL).map(p -> p.items());
        }
        int pageNumber = page == null ? 0 : page;
        int pageSize = size == null ? DEFAULT_PAGE_SIZE : size;
        Paging.check(pageNumber, pageSize, PageLimit.MAX_PAGE_SIZE);
        return sources.list(filter, orderBy, pageNumber, pageSize).map(p -> p);
    }

    private static String status(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        String wanted = status.trim().toUpperCase(Locale.ROOT);
        if (!SourceService.STATUSES.contains(wanted)) {
            throw new IllegalArgumentException("status: '" + LogSafeText.of(status) + "' is not one of "
                    + String.join(", ", SourceService.STATUSES));
        }
        return wanted;
    }

    private static String type(String type) {
        if (type == null || type.isBlank()) {
            return null;
        }
        String wanted = type.trim().toLowerCase(Locale.ROOT);
        if (!SourceTypes.ALL.contains(wanted)) {
            throw new IllegalArgumentException("type: '" + LogSafeText.of(type) + "' is not one of openapi, git,"
                    + " marketplace, directory");
        }
        return wanted;
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "One source")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<SourceView> get(@PathParam("id") UUID id) {
        return sources.get(id);
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Change a source (the whole editable state: name, type, url, branch, path, interval,"
            + " suspendOnChange)")
    public Uni<SourceView> update(@PathParam("id") UUID id, SourceRequest request) {
        return sources.update(id, request, actor());
    }

    @DELETE
    @Path("{id}")
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Remove a source and its candidates; running plugins are not affected")
    @APIResponse(responseCode = "204", description = "Removed")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "503", description = "Not removed: other work held its candidates longer than the"
            + " lock timeout, or a deadlock; nothing changed, retry after Retry-After seconds",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> delete(@PathParam("id") UUID id) {
        return sources.delete(id, actor()).replaceWith(Response.noContent().build());
    }

    @POST
    @Path("{id}/scan")
    @RolesAllowed(Roles.ADMIN)
    @Blocking
    @Operation(summary = "Scan now", description = "Runs a scan and answers with the source's state after it"
            + " (a failed scan is a 200 with status FAILED and lastError). Waits for a scan already running.")
    public SourceView scan(@PathParam("id") UUID id) {
        scanner.scanNow(id);
        return ReactiveBridge.await(() -> sources.get(id));
    }

    private String actor() {
        return identity.getPrincipal().getName();
    }
}
