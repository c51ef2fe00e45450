package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.step.PlanStep;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The Kafka door: steps from {@code plan-steps}. A message that is not a valid plan step is nacked
 * with the reason at once, which sends it to {@code plan-steps.dlq} and moves on (the partition is
 * never blocked). Results go out through the outbox on {@code step-results}.
 *
 * <p>A step that fails while the service shuts down (its database pool closing under it) is neither acked
 * nor sent to the dead-letter topic: its offset stays uncommitted, so the instance that takes the partition
 * over runs it (a graceful stop used to send in-flight steps to the dead-letter topic, and their planners
 * never got a result).
 */
@ApplicationScoped
public class PlanStepListener {

    private static final Logger LOG = Logger.getLogger(PlanStepListener.class);

    private final ContractCodec codec;
    private final StepDispatcher dispatcher;
    private final StepSpans spans;
    private volatile boolean shuttingDown;

    public PlanStepListener(ContractCodec codec, StepDispatcher dispatcher, StepSpans spans) {
        this.codec = codec;
        this.dispatcher = dispatcher;
        this.spans = spans;
    }

    void onShutdown(@Observes ShutdownEvent event) {
        shuttingDown = true;
    }

    @Incoming("plan-steps-in")
    public Uni<Void> onStep(Message<byte[]> message) {
        PlanStep step;
        EventEnvelope envelope;
        try {
            envelope = codec.openEnvelope(message.getPayload());
            step = codec.payload(envelope, PlanStep.class);
        } catch (ContractViolation violation) {
            LOG.warnf("plan-steps: refused a message: %s", violation.getMessage());
            return Uni.createFrom().completionStage(message.nack(violation));
        }
        return dispatcher.submit(step, spans.fromKafka(step, envelope), (outcome, failure) -> {
            if (failure == null) {
                message.ack();
            } else if (shuttingDown) {
                LOG.warnf("step %s interrupted by the shutdown (%s); left uncommitted for the next owner of its "
                        + "partition", step.stepId(), failure.getMessage());
            } else {
                LOG.errorf(failure, "step %s could not be processed; sent to the dead-letter topic", step.stepId());
                message.nack(failure);
            }
        });
    }
}
