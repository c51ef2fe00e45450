package dev.toolsmith.capabilities.step;

import dev.toolsmith.capabilities.config.StepConfig;
import dev.toolsmith.contracts.step.PlanStep;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Finishes claims whose instance died between claiming a step and recording its result. Such a step
 * is never re-run (its plugin may have acted already): it becomes FAILED with a reason saying so, and
 * that result is published like any other, so no step is left without an answer.
 */
@ApplicationScoped
public class AbandonedStepSweeper {

    private static final Logger LOG = Logger.getLogger(AbandonedStepSweeper.class);
    private static final int BATCH = 100;

    private final StepStore store;
    private final StepRecorder recorder;
    private final StepService steps;
    private final StepConfig config;

    public AbandonedStepSweeper(StepStore store, StepRecorder recorder, StepService steps, StepConfig config) {
        this.store = store;
        this.recorder = recorder;
        this.steps = steps;
        this.config = config;
    }

    @Scheduled(every = "${toolsmith.steps.sweep-every:30s}", delayed = "10s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sweep() {
        return sweepNow().replaceWithVoid();
    }

    /** Returns how many abandoned steps were finished. */
    public Uni<Integer> sweepNow() {
        return Panache.withSession(() -> store.abandoned(config.abandonedAfter(), BATCH))
                .onItem().transformToMulti(Multi.createFrom()::iterable)
                .filter(stored -> !steps.inFlight().contains(stored.stepId()))
                .onItem().transformToUniAndConcatenate(stored -> {
                    PlanStep step = new PlanStep(stored.stepId(), stored.planId(), stored.actionVerb(), null, null, null, null);
                    Completion failed = Completion.of(StepFlows.failed(step, "interrupted: the instance running this "
                            + "step stopped before recording its result; it is not re-run because its tool may already "
                            + "have acted. Submit it under a new step id to try again."));
                    return Panache.withTransaction(() -> recorder.record(failed))
                            .invoke(recorded -> LOG.warnf("step %s was abandoned by its instance; recorded as FAILED",
                                    stored.stepId()));
                })
                .collect().asList()
                .map(list -> (int) list.stream().filter(Boolean::booleanValue).count());
    }
}
