package dev.toolsmith.planner.kafka;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepResult;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The planner's side of Kafka: plan steps out on {@code plan-steps}, each signed with the planner's API key (the step
 * runs as the caller that signed it, docs/events.md "Signing a plan step"), and their results back from
 * {@code step-results}. Used by the reference planner agent's Kafka mode and by the demo.
 */
public final class PlanStepChannel implements AutoCloseable {

    private final ContractCodec codec = new ContractCodec();
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> results;
    private final PlanStepSigner signer;
    private final String source;

    /**
     * {@code kafkaLogin}: the planner's login on an authenticated broker ({@link PlannerKafka#login}); {@code group}:
     * the prefix of the results reader's consumer group (a planner's groups must start with {@code planner-});
     * {@code source}: the envelope's source, naming the sender.
     */
    public PlanStepChannel(String bootstrap, Map<String, Object> kafkaLogin, PlanStepSigner signer, String group,
            String source) {
        this.signer = signer;
        this.source = source;
        producer = PlannerKafka.producer(bootstrap, kafkaLogin);
        results = PlannerKafka.consumerAtEnd(bootstrap, Topics.STEP_RESULTS, group, kafkaLogin);
    }

    /** Publishes {@code step} keyed by its plan and waits for the result with the same step id. */
    public Optional<StepResult> sendAndAwait(PlanStep step, Duration timeout) {
        EventEnvelope envelope = codec.envelope(step, source, step.planId());
        try {
            byte[] value = codec.serialize(envelope);
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.PLAN_STEPS, step.planId(), value);
            signer.headers(value).forEach(record.headers()::add); // the step runs as the caller that signed it
            producer.send(record).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing the step on " + Topics.PLAN_STEPS, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish the step on " + Topics.PLAN_STEPS + ": " + e.getMessage(), e);
        }
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (ConsumerRecord<String, byte[]> record : results.poll(Duration.ofMillis(200))) {
                StepResult result = codec.payload(codec.openEnvelope(record.value()), StepResult.class);
                if (step.stepId().equals(result.stepId())) {
                    return Optional.of(result);
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        producer.close();
        results.close();
    }
}
