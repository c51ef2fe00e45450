package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.step.PlanStep;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The Kafka door: steps from {@code plan-steps}. A message that is not a valid plan step is nacked
 * with the reason at once, which sends it to {@code plan-steps.dlq} and moves on (the partition is
 * never blocked). Results go out through the outbox on {@code step-results}.
 */
@ApplicationScoped
public class PlanStepListener {

    private static final Logger LOG = Logger.getLogger(PlanStepListener.class);

    private final ContractCodec codec;
    private final StepDispatcher dispatcher;
    private final StepSpans spans;

    public PlanStepListener(ContractCodec codec, StepDispatcher dispatcher, StepSpans spans) {
        this.codec = codec;
        this.dispatcher = dispatcher;
        this.spans = spans;
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
            } else {
                LOG.errorf(failure, "step %s could not be processed; sent to the dead-letter topic", step.stepId());
                message.nack(failure);
            }
        });
    }
}
