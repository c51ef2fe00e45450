package dev.toolsmith.capabilities.step;

import dev.toolsmith.capabilities.config.StepConfig;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.eventing.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The REST door for plan steps, the same code path as Kafka {@code plan-steps}. {@code POST /steps}
 * answers 200 with the result when it comes within {@code toolsmith.steps.rest-wait}, else 202 with a
 * Location to poll; the result is also published on {@code step-results}. The step runs as the
 * authenticated caller, whatever its body says, and belongs to it: a step id another caller sent first
 * answers 409, and the reads show a caller only its own steps (admins and viewers see every caller's; see
 * {@link StepReader}).
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class StepResource {

    private static final int MAX_PLAN_STEPS_LISTED = 1_000;
    /** The W3C trace context header; a step posted with it continues the caller's trace. */
    private static final String TRACEPARENT = "traceparent";

    private final StepService steps;
    private final StepStore store;
    private final ContractCodec codec;
    private final StepConfig config;
    private final SecurityIdentity identity;
    private final StepSpans spans;
    private final Tracing tracing;

    public StepResource(StepService steps, StepStore store, ContractCodec codec, StepConfig config,
            SecurityIdentity identity, StepSpans spans, Tracing tracing) {
        this.steps = steps;
        this.store = store;
        this.codec = codec;
        this.config = config;
        this.identity = identity;
        this.spans = spans;
        this.tracing = tracing;
    }

    /** What a step that has not finished looks like. */
    public record StepInProgress(String stepId, String planId, String state) {
    }

    /** A step of a plan: its result once it is DONE. */
    public record StepView(String stepId, String planId, String actionVerb, String state, StepResult result) {
    }

    @POST
    @Path("steps")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.PLANNER, Roles.SERVICE, Roles.ADMIN})
    @Operation(summary = "Submit a plan step; 200 with its result, or 202 with a Location when it takes longer; 409 "
            + "when another caller already used its step id")
    public Uni<Response> submit(String body, @QueryParam("waitMs") Long waitMs,
            @HeaderParam(TRACEPARENT) String traceparent) {
        PlanStep given = codec.read(body == null ? "" : body, PlanStep.class);
        PlanStep step = given.as(identity.getPrincipal().getName());
        if (waitMs != null && waitMs < 0) {
            throw new IllegalArgumentException("waitMs: " + waitMs + " is below 0");
        }
        // Above the configured wait it is capped, not refused: waitMs is how long the caller is willing to wait.
        Duration wait = waitMs == null ? config.restWait() : Duration.ofMillis(Math.min(waitMs,
                config.restWait().toMillis()));
        CompletableFuture<StepOutcome> outcome = new CompletableFuture<>();
        Span span = spans.fromRest(step, traceparent);
        tracing.makeCurrent(span); // the request's context is the step's context
        // Detached from this request: if the wait ends first the step keeps running and records its result.
        steps.process(step).subscribe().with(done -> {
            spans.end(span, done, null);
            outcome.complete(done);
        }, failure -> {
            spans.end(span, null, failure);
            outcome.completeExceptionally(failure);
        });
        StepReader submitter = StepReader.of(identity);
        return awaitUpTo(outcome, wait).chain(finished -> {
            if (finished != null && finished.kind() == StepOutcome.Kind.PENDING) {
                return awaitUpTo(steps.running(step.stepId(), submitter).orElseGet(CompletableFuture::new), wait);
            }
            return Uni.createFrom().item(finished);
        }).map(finished -> {
            if (finished != null && finished.kind() == StepOutcome.Kind.CONFLICT) {
                return Response.status(409).type(MediaType.APPLICATION_JSON)
                        .entity(ApiError.of(409, StepOutcome.conflictMessage(step.stepId()))).build();
            }
            return finished == null || finished.result() == null ? inProgress(step.stepId(), step.planId())
                    : Response.ok(finished.result()).build();
        });
    }

    @GET
    @Path("steps/{stepId}")
    @RolesAllowed({Roles.PLANNER, Roles.SERVICE, Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "A step's result (200), 202 while it runs, 404 when unknown or another caller's")
    public Uni<Response> step(@PathParam("stepId") String stepId) {
        StepReader reader = StepReader.of(identity);
        return Panache.withSession(() -> store.find(stepId)).map(stored -> {
            if (stored.isPresent() && reader.sees(stored.get().caller())) {
                StoredStep found = stored.get();
                return found.done() ? Response.ok(found.result()).build() : inProgress(found.stepId(), found.planId());
            }
            if (stored.isEmpty() && steps.running(stepId, reader).isPresent()) {
                return inProgress(stepId, null);
            }
            return Response.status(404).type(MediaType.APPLICATION_JSON)
                    .entity(ApiError.of(404, "no step '" + stepId + "' was submitted")).build();
        });
    }

    @GET
    @Path("plans/{planId}/steps")
    @RolesAllowed({Roles.PLANNER, Roles.SERVICE, Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "The caller's steps of a plan (every caller's for admins and viewers) in the order they were "
            + "claimed, with their results")
    public Uni<List<StepView>> planSteps(@PathParam("planId") String planId) {
        StepReader reader = StepReader.of(identity);
        return Panache.withSession(() -> store.byPlan(planId, reader, MAX_PLAN_STEPS_LISTED)).map(rows -> rows.stream()
                .map(row -> new StepView(row.stepId(), row.planId(), row.actionVerb(),
                        row.done() ? "DONE" : "IN_PROGRESS", row.result()))
                .toList());
    }

    private static Uni<StepOutcome> awaitUpTo(CompletableFuture<StepOutcome> outcome, Duration wait) {
        CompletableFuture<StepOutcome> view = new CompletableFuture<>();
        outcome.whenComplete((value, failure) -> {
            if (failure != null) {
                view.completeExceptionally(failure);
            } else {
                view.complete(value);
            }
        });
        // Cancelling the view on timeout must not cancel the step itself.
        return Uni.createFrom().completionStage(view).ifNoItem().after(wait).recoverWithItem((StepOutcome) null);
    }

    private static Response inProgress(String stepId, String planId) {
        return Response.accepted(new StepInProgress(stepId, planId, "IN_PROGRESS"))
                .location(URI.create("/steps/" + stepId)).build();
    }
}
