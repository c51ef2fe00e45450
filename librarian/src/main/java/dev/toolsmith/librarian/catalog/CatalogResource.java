package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.search.LocalIndexUpdates;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The tool catalog over REST: index a manifest, read, page through and delete tools. */
@Path("/tools")
@Tag(name = "Catalog", description = "Versioned tool manifests; every change reaches every replica's index")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogResource {

    public static final int MAX_PAGE_SIZE = 200;

    private final ContractCodec codec;
    private final ToolCatalog catalog;
    private final CatalogQueries queries;
    private final LocalIndexUpdates index;

    public CatalogResource(ContractCodec codec, ToolCatalog catalog, CatalogQueries queries, LocalIndexUpdates index) {
        this.codec = codec;
        this.catalog = catalog;
        this.queries = queries;
        this.index = index;
    }

    @POST
    @Path("index")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "Index a tool manifest",
            description = "Validates the manifest against its JSON Schema. A new id makes version 1; the same id "
                    + "with a different content hash makes the next version; the same hash changes nothing. The "
                    + "tool keeps its status and allowed callers across versions.")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = ToolManifest.class)))
    @APIResponse(responseCode = "201", description = "A new version was catalogued",
            content = @Content(schema = @Schema(implementation = IndexResponse.class)))
    @APIResponse(responseCode = "200", description = "Unchanged: the current version has this content hash",
            content = @Content(schema = @Schema(implementation = IndexResponse.class)))
    @APIResponse(responseCode = "400", description = "Invalid manifest; `pointer` is the JSON Pointer of the first problem",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> index(String body) {
        ToolManifest manifest = codec.read(body == null ? "" : body, ToolManifest.class);
        return catalog.index(manifest, null)
                .call(outcome -> index.apply(outcome.change()))
                .map(outcome -> Response.status(outcome.newVersion() ? 201 : 200)
                        .entity(IndexResponse.of(outcome)).build());
    }

    @GET
    @Path("{id: .+}")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "A tool: current manifest, status, allowed callers and version history")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = ToolDetails.class)))
    @APIResponse(responseCode = "404", description = "No such tool",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<ToolDetails> get(@PathParam("id") String id) {
        return queries.get(id).map(found -> found.orElseThrow(() -> new NotFoundException("no tool " + id)));
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "Page through the catalog, ordered by tool id")
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
        return queries.list(new CatalogFilter(nonBlank(namespace), nonBlank(domain), wanted), page, size);
    }

    @DELETE
    @Path("{id: .+}")
    @RolesAllowed({Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "Delete a tool and its versions",
            description = "Publishes a tombstone on tool-catalog, so every replica drops the tool from its index.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "404", description = "No such tool",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> delete(@PathParam("id") String id) {
        return catalog.delete(id).call(index::apply).map(change -> {
            if (change.isEmpty()) {
                throw new NotFoundException("no tool " + id);
            }
            return Response.noContent().build();
        });
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
