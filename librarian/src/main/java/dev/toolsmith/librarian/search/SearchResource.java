package dev.toolsmith.librarian.search;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.search.SearchDefaults;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Tool search and prompt selection over the in-memory index. Runs on worker threads (the query is embedded
 * here, a few milliseconds of CPU) and never touches the database.
 */
@Path("/tools")
@Tag(name = "Search", description = "Find the right tool for an intent or a planner verb")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class SearchResource {

    /** Response header with the confidence at or above which a top hit may be substituted without asking. */
    public static final String THRESHOLD_HEADER = "X-Toolsmith-Substitution-Threshold";

    private final ContractCodec codec;
    private final ToolSearch search;
    private final SecurityIdentity identity;

    public SearchResource(ContractCodec codec, ToolSearch search, SecurityIdentity identity) {
        this.codec = codec;
        this.search = search;
        this.identity = identity;
    }

    @POST
    @Path("search")
    @Blocking
    @RolesAllowed({Roles.PLANNER, Roles.VIEWER, Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "Rank the tools for a request",
            description = "Hybrid (BM25 + dense) ranking with a calibrated confidence per hit. Filters and the "
                    + "caller's access apply before ranking and limit; disabled tools never appear. A service may "
                    + "search on behalf of the caller named in `caller`; everyone else searches as themselves.")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = SearchRequest.class)))
    @APIResponse(responseCode = "200", description = "Hits, best first (possibly none)",
            content = @Content(schema = @Schema(type = SchemaType.ARRAY, implementation = SearchHit.class)))
    @APIResponse(responseCode = "400", description = "Empty or over-long query, limit outside 1..100, unknown "
            + "filter value; `pointer` names the field", content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "401", description = "No or unknown credential")
    @APIResponse(responseCode = "403", description = "A role that may not search")
    public Response search(String body) {
        SearchRequest request = codec.read(body, SearchRequest.class);
        List<SearchHit> hits = search.search(request, CallerIdentity.of(identity, request.caller())).hits();
        return Response.ok(hits).header(THRESHOLD_HEADER, SearchDefaults.SUBSTITUTION_THRESHOLD).build();
    }

    @POST
    @Path("select")
    @Blocking
    @RolesAllowed({Roles.PLANNER, Roles.VIEWER, Roles.ADMIN, Roles.SERVICE})
    @Operation(summary = "Choose the tools for a prompt within a token budget",
            description = "The core tools first (those that fit, in the order given), then the best matches for the "
                    + "message that fit; tokens are counted with cl100k_base over each tool's function definition "
                    + "(name, description, input schema). `tokensUsed` never exceeds `tokenBudget`.")
    @RequestBody(required = true, content = @Content(schema = @Schema(implementation = SelectRequest.class)))
    @APIResponse(responseCode = "200", description = "The selection",
            content = @Content(schema = @Schema(implementation = SelectResponse.class)))
    @APIResponse(responseCode = "400", description = "Empty or over-long message, budget outside 1..1000000",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public SelectResponse select(String body) {
        SelectRequest request = SelectRequestReader.read(codec, body);
        return search.select(request, CallerIdentity.of(identity, request.caller()));
    }
}
