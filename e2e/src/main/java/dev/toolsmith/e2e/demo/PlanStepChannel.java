package dev.toolsmith.e2e.demo;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.e2e.PlannerKafka;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The planner's side of Kafka: plan steps out on {@code plan-steps}, their results back from {@code step-results}. */
final class PlanStepChannel implements AutoCloseable {

    private final ContractCodec codec = new ContractCodec();
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> results;
    private final PlanStepSigner signer;

    /** {@code kafkaLogin}: the planner's login on an authenticated broker ({@link PlannerKafka#login}). */
    PlanStepChannel(String bootstrap, Map<String, Object> kafkaLogin, PlanStepSigner signer) {
        this.signer = signer;
        producer = PlannerKafka.producer(bootstrap, kafkaLogin);
        results = PlannerKafka.consumerAtEnd(bootstrap, Topics.STEP_RESULTS, "planner-demo", kafkaLogin);
    }

    /** Publishes {@code step} keyed by its plan and waits for the result with the same step id. */
    Optional<StepResult> sendAndAwait(PlanStep step, Duration timeout) {
        EventEnvelope envelope = codec.envelope(step, "/toolsmith-demo", step.planId());
        try {
            byte[] value = codec.serialize(envelope);
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.PLAN_STEPS, step.planId(), value);
            signer.headers(value).forEach(record.headers()::add); // the step runs as the caller that signed it
            producer.send(record).get();
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
