package dev.toolsmith.engineer.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.engineer.gaps.BuildRequest;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.OffsetDateTime;

/** {@code GET /build-requests}: capabilities planners asked for and nothing served, most requested first. */
@Path("/build-requests")
@Produces(MediaType.APPLICATION_JSON)
public class BuildRequestResource {

    private final ObjectMapper mapper;

    public BuildRequestResource(ContractCodec codec) {
        this.mapper = codec.mapper();
    }

    /**
     * One build request as the API shows it. {@code draftManifest} is the LLM's specification of the missing
     * tool (no HTTP binding: never built or approved automatically), {@code draftError} why there is none;
     * {@code draftDeliveredAt}/{@code draftDeliveryError} tell whether it reached the librarian's review queue.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BuildRequestView(String id, String normalizedVerb, String actionVerb, String description,
            JsonNode inputNames, long timesSeen, int candidates, String status, JsonNode draftManifest,
            String draftError, OffsetDateTime draftDeliveredAt, String draftDeliveryError, OffsetDateTime createdAt,
            OffsetDateTime updatedAt) {
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @WithSession
    public Uni<PageView<BuildRequestView>> list(@QueryParam("page") Integer page, @QueryParam("size") Integer size) {
        int p = page == null ? 0 : page;
        int s = size == null ? 20 : size;
        Paging.check(p, s, 100);
        return BuildRequest.<BuildRequest>findAll(Sort.descending("timesSeen").and("updatedAt", Sort.Direction.Descending))
                .page(Page.of(p, s)).list()
                .chain(items -> BuildRequest.count().map(total -> new PageView<>(items.stream().map(this::view).toList(),
                        total, p, s)));
    }

    private BuildRequestView view(BuildRequest r) {
        return new BuildRequestView(r.id.toString(), r.normalizedVerb, r.actionVerb, r.description, json(r.inputNames),
                r.timesSeen, r.candidates, r.status, json(r.draftManifest), r.draftError, r.draftDeliveredAt,
                r.draftDeliveryError, r.createdAt, r.updatedAt);
    }

    private JsonNode json(String text) {
        try {
            return text == null ? null : mapper.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }
}
