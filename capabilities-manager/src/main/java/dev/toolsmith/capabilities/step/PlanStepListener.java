package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSignature;
import dev.toolsmith.contracts.step.PlanStepVerifier;
import dev.toolsmith.eventing.security.ApiKeyIdentityProvider;
import dev.toolsmith.eventing.security.Roles;
import io.smallrye.mutiny.Uni;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The Kafka door: steps from {@code plan-steps}. A step runs as the caller its record's signature proves
 * ({@link PlanStepSignature}: headers {@code toolsmith-caller} and {@code toolsmith-signature}, checked against the
 * configured API keys with role planner, service or admin), whatever its {@code caller} field says. A record
 * that is unsigned, badly signed or from an unknown caller, or that is not a valid plan step, is nacked with
 * the reason at once, which sends it to {@code plan-steps.dlq} and moves on (the partition is never blocked);
 * it never runs. Results go out through the outbox on {@code step-results}.
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
    private final PlanStepVerifier senders;
    private final StepRecorder recorder;
    private volatile boolean shuttingDown;

    public PlanStepListener(ContractCodec codec, StepDispatcher dispatcher, StepSpans spans,
            ApiKeyIdentityProvider apiKeys, StepRecorder recorder) {
        this.codec = codec;
        this.dispatcher = dispatcher;
        this.spans = spans;
        this.recorder = recorder;
        // The keys are configuration: derived once here, not per record.
        this.senders = PlanStepVerifier.of(apiKeys.keyHashesWithAnyRole(Set.of(Roles.PLANNER, Roles.SERVICE, Roles.ADMIN)));
    }

    void onShutdown(@Observes ShutdownEvent event) {
        shuttingDown = true;
    }

    @Incoming("plan-steps-in")
    public Uni<Void> onStep(Message<byte[]> message) {
        if (message.getPayload() == null) { // a tombstone: no step, but its sender hears of it in the DLQ
            LOG.warn("plan-steps: refused a record without a value");
            return Uni.createFrom().completionStage(message.nack(new ContractViolation("",
                    "a plan-steps record needs a value: a signed CloudEvents plan step, not a null (tombstone)")));
        }
        PlanStepVerifier.Verdict sender = sender(message);
        if (sender instanceof PlanStepVerifier.Refused refused) {
            LOG.warnf("plan-steps: refused a record: %s", refused.reason());
            return Uni.createFrom().completionStage(message.nack(new UnauthenticatedStep(refused.reason())));
        }
        String caller = ((PlanStepVerifier.Authenticated) sender).caller();
        PlanStep step;
        EventEnvelope envelope;
        try {
            envelope = codec.openEnvelope(message.getPayload());
            PlanStep sent = codec.payload(envelope, PlanStep.class);
            step = sent.as(caller);
        } catch (ContractViolation violation) {
            LOG.warnf("plan-steps: refused a message: %s", violation.getMessage());
            return Uni.createFrom().completionStage(message.nack(violation));
        }
        Optional<String> nul = NulCharacters.firstIn(envelope.data(), "/data");
        if (nul.isPresent()) {
            return refuseNul(message, step, nul.get());
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

    /**
     * A NUL in an input or the description: the planner gets a FAILED result naming the field (stored nowhere,
     * nothing ran). In an id or the verb there is no result to key: the record goes to the dead-letter topic.
     */
    private Uni<Void> refuseNul(Message<byte[]> message, PlanStep step, String pointer) {
        String problem = "field " + pointer + " contains the NUL character (U+0000), which no step may hold";
        if (!pointer.startsWith("/data/inputs") && !pointer.startsWith("/data/description")
                && !pointer.startsWith("/data/outputs")) {
            return Uni.createFrom().completionStage(message.nack(new ContractViolation(pointer, problem)));
        }
        LOG.warnf("plan-steps: step %s refused: %s", step.stepId(), problem);
        return recorder.announce(StepFlows.failed(step, problem + "; nothing ran"))
                .onItemOrFailure().transformToUni((done, failure) -> Uni.createFrom()
                        .completionStage(failure == null ? message.ack() : message.nack(failure)));
    }

    /** Who sent the record, by its signature over the value exactly as received. */
    private PlanStepVerifier.Verdict sender(Message<byte[]> message) {
        Headers headers = message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(metadata -> (Headers) metadata.getHeaders()).orElse(null);
        return senders.verify(last(headers, PlanStepSignature.CALLER_HEADER),
                last(headers, PlanStepSignature.SIGNATURE_HEADER), message.getPayload());
    }

    private static byte[] last(Headers headers, String name) {
        Header header = headers == null ? null : headers.lastHeader(name);
        return header == null ? null : header.value();
    }

    /** Why a record was not run: its reason becomes the dead-letter record's {@code dead-letter-reason}. */
    static final class UnauthenticatedStep extends RuntimeException {

        UnauthenticatedStep(String reason) {
            super(reason, null, false, false); // an expected refusal: no stack trace to fill
        }
    }
}
