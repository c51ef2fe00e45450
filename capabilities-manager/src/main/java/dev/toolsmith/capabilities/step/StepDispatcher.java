package dev.toolsmith.capabilities.step;

import dev.toolsmith.capabilities.config.StepConfig;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.eventing.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiConsumer;

/**
 * Runs steps from Kafka concurrently across plans and in order within a plan (a step may read an
 * earlier step's outputs; Kafka keys steps by plan id, so a plan's steps arrive in order). At most
 * {@code toolsmith.steps.max-in-flight} run at once; {@link #submit} completes only when the step was
 * admitted, which is what holds the Kafka consumer back under load. Each step runs on a fresh Vert.x
 * duplicated context so its database session and log context are its own.
 */
@ApplicationScoped
public class StepDispatcher {

    private static final int ATTEMPTS = 5;

    private final StepService steps;
    private final Vertx vertx;
    private final AdmissionGate gate;
    private final Tracing tracing;
    private final StepSpans spans;
    private final StepRecorder recorder;
    private final ConcurrentMap<String, CompletableFuture<Void>> planTails = new ConcurrentHashMap<>();

    public StepDispatcher(StepService steps, Vertx vertx, StepConfig config, Tracing tracing, StepSpans spans,
            StepRecorder recorder) {
        this.steps = steps;
        this.vertx = vertx;
        this.gate = new AdmissionGate(config.maxInFlight());
        this.tracing = tracing;
        this.spans = spans;
        this.recorder = recorder;
    }

    /**
     * Admits the step, then runs it after the earlier steps of its plan; {@code done} gets the outcome
     * or, after retries of infrastructure failures (database down), the failure. {@code span} is the
     * step's span ({@link StepSpans}): current while the step runs, ended when it is done.
     */
    public Uni<Void> submit(PlanStep step, Span span, BiConsumer<StepOutcome, Throwable> done) {
        return Uni.createFrom().completionStage(gate::acquire).invoke(() -> {
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> previous = planTails.put(step.planId(), mine);
            Runnable start = () -> run(step, span).whenComplete((outcome, failure) -> {
                planTails.remove(step.planId(), mine);
                gate.release();
                mine.complete(null);
                spans.end(span, outcome, failure);
                done.accept(outcome, failure);
            });
            if (previous == null) {
                start.run();
            } else {
                previous.whenComplete((ignored, alsoIgnored) -> start.run());
            }
        });
    }

    private CompletableFuture<StepOutcome> run(PlanStep step, Span span) {
        CompletableFuture<StepOutcome> result = new CompletableFuture<>();
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        context.runOnContext(ignored -> {
            tracing.makeCurrent(span); // on the step's own context: its events and child spans continue it
            steps.process(step)
                    // A planner on Kafka learns of a conflict from step-results, like of any other outcome.
                    .call(outcome -> outcome.kind() == StepOutcome.Kind.CONFLICT ? recorder.announce(outcome.result())
                            : Uni.createFrom().voidItem())
                    .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(3)).atMost(ATTEMPTS)
                    .subscribe().with(result::complete, result::completeExceptionally);
        });
        return result;
    }
}
