package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Records a claimed step's result and announces it on {@code step-results} (key: plan id) through the
 * outbox, in the caller's transaction: the stored result and the published one can never disagree.
 */
@ApplicationScoped
public class StepRecorder {

    private static final Logger LOG = Logger.getLogger(StepRecorder.class);

    private final StepStore store;
    private final Outbox outbox;

    public StepRecorder(StepStore store, Outbox outbox) {
        this.store = store;
        this.outbox = outbox;
    }

    /**
     * Publishes a result that is stored nowhere, in a transaction of its own: the answer to a step refused
     * before it was claimed (another caller's step id), whose row belongs to someone else.
     */
    public Uni<Void> announce(StepResult result) {
        return Panache.withTransaction(() -> outbox.append(Topics.STEP_RESULTS, result.planId(), result)).replaceWithVoid();
    }

    /** False when the claim had already been finished elsewhere (then nothing is written or published). */
    public Uni<Boolean> record(Completion completion) {
        return store.complete(completion.result()).chain(recorded -> {
            if (!recorded) {
                LOG.warnf("step %s was finished by someone else meanwhile; this result is dropped: %s",
                        completion.result().stepId(), completion.result().status());
                return Uni.createFrom().item(false);
            }
            LOG.debugf("step %s %s", completion.result().stepId(), completion.result().status());
            return outbox.append(Topics.STEP_RESULTS, completion.result().planId(), completion.result())
                    .chain(() -> completion.alsoInTransaction().get())
                    .replaceWith(true);
        });
    }
}
