package dev.toolsmith.engineer.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.engineer.jobs.BuildJob;
import dev.toolsmith.engineer.jobs.BuildJobs;
import dev.toolsmith.engineer.jobs.BuildState;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

/**
 * Build jobs: {@code GET /builds} (newest first; filter by {@code state} and {@code toolId}; {@code page}
 * from 0, {@code size} up to 100), {@code GET /builds/{id}} (state, plugin, generated cases, report), and
 * {@code POST /builds/{id}/retry} (admin; a failed build is queued again with the same approval).
 */
@Path("/builds")
@Produces(MediaType.APPLICATION_JSON)
public class BuildResource {

    private final BuildJobs jobs;
    private final ObjectMapper mapper;

    public BuildResource(BuildJobs jobs, ContractCodec codec) {
        this.jobs = jobs;
        this.mapper = codec.mapper();
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @WithSession
    public Uni<PageView<BuildView>> list(@QueryParam("state") String state, @QueryParam("toolId") String toolId,
            @QueryParam("page") Integer page, @QueryParam("size") Integer size) {
        BuildState filter = state(state);
        int p = page == null ? 0 : page;
        int s = size == null ? 20 : size;
        Paging.check(p, s, 100);
        String tool = toolId == null || toolId.isBlank() ? null : toolId;
        return jobs.page(filter, tool, p, s).chain(items -> jobs.count(filter, tool)
                .map(total -> new PageView<>(items.stream().map(job -> view(job, false)).toList(), total, p, s)));
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @WithSession
    public Uni<BuildView> get(@PathParam("id") String id) {
        return BuildJob.<BuildJob>findById(uuid(id)).map(job -> {
            if (job == null) {
                throw new NotFoundException("no build " + id);
            }
            return view(job, true);
        });
    }

    @POST
    @Path("/{id}/retry")
    @RolesAllowed(Roles.ADMIN)
    @WithTransaction
    public Uni<Response> retry(@PathParam("id") String id) {
        return jobs.retry(uuid(id)).map(retried -> {
            if (retried == null) {
                throw new NotFoundException("no build " + id);
            }
            if (!retried) {
                throw new WebApplicationException("only a FAILED build can be retried", Response.Status.CONFLICT);
            }
            return Response.accepted(new RetryAccepted(id, BuildState.RECEIVED.name())).build();
        });
    }

    /** The answer to a retry: the build is queued again. */
    public record RetryAccepted(String id, String state) {
    }

    private static BuildState state(String state) {
        if (state == null || state.isBlank()) {
            return null;
        }
        try {
            return BuildState.valueOf(state.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("state must be one of " + Arrays.toString(BuildState.values()) + ", got '"
                    + state + "'");
        }
    }

    private static UUID uuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("no build " + id);
        }
    }

    private BuildView view(BuildJob job, boolean detail) {
        return new BuildView(job.id.toString(), job.toolId, job.version, job.state.name(), job.failureReason, job.attempts,
                job.createdAt, job.updatedAt, tree(job.report), detail ? tree(job.plugin) : null,
                detail ? tree(job.suite) : null, detail ? tree(job.notes) : null);
    }

    private JsonNode tree(String json) {
        if (json == null) {
            return null;
        }
        try {
            return mapper.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException("stored JSON is always valid", e);
        }
    }
}
