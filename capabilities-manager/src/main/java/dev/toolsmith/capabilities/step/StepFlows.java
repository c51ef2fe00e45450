package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The shapes a step's bookkeeping can take. Each makes sure a step id does its work at most once, that a
 * step id its caller sent before gets the stored result, and that a step id another caller sent first gets
 * {@link StepOutcome.Kind#CONFLICT}: the check rides on the statement that finds the existing row (the
 * look-up, or the read after a lost claim), so it costs no round trip of its own.
 * <ul>
 * <li>{@link #runThenRecord}: the hot path of known verbs and learned aliases, for side-effect-free work
 * on literal inputs:
 * look the step id up, run, then write the finished row and its event in one statement
 * ({@link FinishedStepWriter}). Nothing is claimed first, so a crash before the write leaves nothing and
 * the redelivery runs the step as if for the first time. A redelivered or resubmitted step finds its row
 * and does not run; two deliveries of one step id racing on two replicas (a plan's steps go to one
 * consumer; this needs the REST door and Kafka at the same instant) may both compute, but only one
 * writes and announces, and the other answers with that stored result. Work with effects never comes
 * here.</li>
 * <li>{@link #inOneTransaction}: claim, resolve inputs, run, record the result and its event, commit.
 * For side-effect-free work (internal plugins): a crash rolls everything back and the redelivery runs
 * it as if for the first time; one transaction keeps the hot path to one commit.</li>
 * <li>{@link #claimFirst}: the claim commits on its own, then the work runs outside any transaction
 * (a search, an LLM, a remote API), then the result and its event commit. A crash in between leaves a
 * claim that is never re-run; {@link AbandonedStepSweeper} finishes it as FAILED.</li>
 * </ul>
 */
@ApplicationScoped
public class StepFlows {

    private static final Logger LOG = Logger.getLogger(StepFlows.class);

    private final StepStore store;
    private final InputResolver inputs;
    private final StepRecorder recorder;
    private final FinishedStepWriter finished;

    public StepFlows(StepStore store, InputResolver inputs, StepRecorder recorder, FinishedStepWriter finished) {
        this.store = store;
        this.inputs = inputs;
        this.recorder = recorder;
        this.finished = finished;
    }

    /** Only for side-effect-free work on a step without references ({@link InputResolver#hasReferences}). */
    public Uni<StepOutcome> runThenRecord(PlanStep step, Function<ObjectNode, Uni<StepResult>> work) {
        Executor backToStep = onCurrentContext();
        return finished.existing(step).chain(seen -> {
            if (seen.isPresent()) {
                return Uni.createFrom().item(seen.get());
            }
            return inputs.resolve(step)
                    .chain(resolved -> resolved.ok() ? work.apply(resolved.values())
                            : Uni.createFrom().item(failed(step, resolved.error())))
                    .emitOn(backToStep) // the event carries the step's trace, which lives on its context
                    .chain(result -> finished.insert(step, result).chain(written -> written
                            ? Uni.createFrom().item(StepOutcome.ran(result))
                            : finished.existing(step).map(stored -> stored.orElseGet(StepOutcome::pending))));
        });
    }

    private record Done(StepOutcome outcome, Runnable afterCommit) {
    }

    private record FirstPhase(StepOutcome finished, ObjectNode inputs) {
    }

    public Uni<StepOutcome> inOneTransaction(PlanStep step, Function<ObjectNode, Uni<Completion>> work) {
        return Panache.withTransaction(() -> store.claim(step).chain(claimed -> {
            if (!claimed) {
                return existing(step).map(outcome -> new Done(outcome, null));
            }
            return inputs.resolve(step)
                    .chain(resolved -> resolved.ok() ? work.apply(resolved.values())
                            : Uni.createFrom().item(Completion.of(failed(step, resolved.error()))))
                    .call(recorder::record)
                    .map(completion -> new Done(StepOutcome.ran(completion.result()), completion.afterCommit()));
        })).invoke(done -> {
            if (done.afterCommit() != null) {
                done.afterCommit().run();
            }
        }).map(Done::outcome);
    }

    public Uni<StepOutcome> claimFirst(PlanStep step, Function<ObjectNode, Uni<Completion>> work) {
        Executor backToStep = onCurrentContext();
        return Panache.withTransaction(() -> store.claim(step).chain(claimed -> {
            if (!claimed) {
                return existing(step).map(outcome -> new FirstPhase(outcome, null));
            }
            return inputs.resolve(step).chain(resolved -> {
                if (resolved.ok()) {
                    return Uni.createFrom().item(new FirstPhase(null, resolved.values()));
                }
                StepResult failed = failed(step, resolved.error());
                return recorder.record(Completion.of(failed)).replaceWith(new FirstPhase(StepOutcome.ran(failed), null));
            });
        })).chain(first -> {
            if (first.finished() != null) {
                return Uni.createFrom().item(first.finished());
            }
            return work.apply(first.inputs())
                    .onFailure().recoverWithItem(error -> {
                        LOG.errorf(error, "step %s could not be completed", step.stepId());
                        return Completion.of(failed(step, "the step could not be completed: " + error.getMessage()));
                    })
                    // The work may finish on a Kafka, timer or worker thread: the session needs the step's context.
                    .emitOn(backToStep)
                    .chain(completion -> Panache.withTransaction(() -> recorder.record(completion))
                            .invoke(recorded -> {
                                if (recorded) {
                                    completion.afterCommit().run();
                                }
                            })
                            .replaceWith(StepOutcome.ran(completion.result())));
        });
    }

    /** After a lost claim: the stored result if the step id is this caller's and done; a conflict if it is not its own. */
    private Uni<StepOutcome> existing(PlanStep step) {
        return store.find(step.stepId()).map(stored -> {
            if (stored.isPresent() && !stored.get().ownedBy(step.caller())) {
                return StepOutcome.conflict(step);
            }
            return stored.filter(StoredStep::done).map(done -> StepOutcome.stored(done.result()))
                    .orElseGet(StepOutcome::pending);
        });
    }

    static StepResult failed(PlanStep step, String error) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.FAILED, null, null, null, null, null, error,
                Instant.now());
    }

    private static Executor onCurrentContext() {
        Context context = Vertx.currentContext();
        if (context == null) {
            throw new IllegalStateException("steps run on a Vert.x context (REST request or StepDispatcher)");
        }
        return command -> context.runOnContext(ignored -> command.run());
    }
}
