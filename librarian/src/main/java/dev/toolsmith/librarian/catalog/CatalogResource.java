package dev.toolsmith.librarian.catalog;

import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The tool catalog over REST: read, page through, and retire tools. Nothing enters the catalog here:
 * external tools arrive only as verified builds of an approval ({@code plugin-built}), internal plugins
 * from the capabilities manager's own announcements. Retiring is an admin's audited decision.
 */
@Path("/tools")
@Tag(name = "Catalog", description = "Versioned tool manifests; every change reaches every replica's index")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogResource {

    public static final int MAX_PAGE_SIZE = 200;

    private final ToolRetirement retirement;
    private final CatalogQueries queries;
    private final LocalCatalogIndex index;
    private final SecurityIdentity identity;

    public CatalogResource(ToolRetirement retirement, CatalogQueries queries, LocalCatalogIndex index,
            SecurityIdentity identity) {
        this.retirement = retirement;
        this.queries = queries;
        this.index = index;
        this.identity = identity;
    }

    @GET
    @Path("{id: .+}")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.SERVICE, Roles.PLANNER})
    @Operation(summary = "A tool: current manifest, status, allowed callers and version history",
            description = "A planner sees only an active tool it may call, without its allowed callers; any other "
                    + "tool answers 404 like one that does not exist.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ToolDetails.class)))
    @APIResponse(responseCode = "404", description = "No such tool",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<ToolDetails> get(@PathParam("id") String id) {
        CatalogReader reader = CatalogReader.of(identity);
        return queries.get(id).map(found -> found.filter(reader::sees).map(reader::shown)
                .orElseThrow(() -> new NotFoundException("no tool " + id)));
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.SERVICE, Roles.PLANNER})
    @Operation(summary = "Page through the catalog, ordered by tool id",
            description = "A planner pages through the active tools it may call, without their allowed callers.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CatalogPage.class)))
    @APIResponse(responseCode = "400", description = "Unknown status, page below 0 or size outside 1..200",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CatalogPage> list(
            @Parameter(description = "exact namespace, any case") @QueryParam("namespace") String namespace,
            @Parameter(description = "exact domain, any case") @QueryParam("domain") String domain,
            @Parameter(description = "active or disabled") @QueryParam("status") String status,
            @Parameter(description = "page number from 0") @QueryParam("page") @DefaultValue("0") int page,
            @Parameter(description = "page size, 1..200") @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, MAX_PAGE_SIZE);
        Optional<ToolStatus> wanted = Optional.empty();
        if (status != null && !status.isBlank()) {
            wanted = Optional.of(ToolStatus.parse(status).orElseThrow(() -> new IllegalArgumentException(
                    "status: unknown value '" + status + "' (active or disabled)")));
        }
        CatalogReader reader = CatalogReader.of(identity);
        if (reader.planner().isPresent()) {
            // a planner never sees a disabled tool: asking for them answers an empty page
            if (wanted.isPresent() && wanted.get() != ToolStatus.ACTIVE) {
                return Uni.createFrom().item(new CatalogPage(java.util.List.of(), page, size, 0));
            }
            wanted = Optional.of(ToolStatus.ACTIVE);
        }
        return queries.list(new CatalogFilter(nonBlank(namespace), nonBlank(domain), wanted, reader.planner()), page,
                size).map(found -> new CatalogPage(found.items().stream().map(reader::shown).toList(), found.page(),
                        found.size(), found.total()));
    }

    @DELETE
    @Path("{id: .+}")
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Retire a tool: take it out of the catalog and out of service, with a reason",
            description = "Deletes the tool and its versions (a tombstone on tool-catalog, so every replica drops it),"
                    + " marks its active approval RETIRED, publishes plugin-status DISABLED so the capabilities manager"
                    + " stops running it, and writes a RETIRED audit entry naming the admin and the reason. Only a new"
                    + " approval brings the tool back.")
    @APIResponse(responseCode = "204", description = "Retired")
    @APIResponse(responseCode = "400", description = "No reason, or one longer than 2000 characters",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "404", description = "No such tool",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "409", description = "An internal plugin, or a tool whose approval is being built",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> retire(@PathParam("id") String id,
            @Parameter(description = "why the tool is retired (required; goes to the audit log)")
            @QueryParam("reason") String reason) {
        CatalogActor by = CatalogActor.person(identity.getPrincipal().getName(), "DELETE /tools/" + id);
        return retirement.retire(id, reason, by).call(index::apply).map(change -> Response.noContent().build());
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
