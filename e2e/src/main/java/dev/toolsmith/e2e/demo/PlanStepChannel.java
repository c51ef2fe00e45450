package dev.toolsmith.e2e.demo;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
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

    PlanStepChannel(String bootstrap) {
        producer = PlannerKafka.producer(bootstrap, Map.of());
        results = PlannerKafka.consumerAtEnd(bootstrap, Topics.STEP_RESULTS, "toolsmith-demo", Map.of());
    }

    /** Publishes {@code step} keyed by its plan and waits for the result with the same step id. */
    Optional<StepResult> sendAndAwait(PlanStep step, Duration timeout) {
        EventEnvelope envelope = codec.envelope(step, "/toolsmith-demo", step.planId());
        try {
            producer.send(new ProducerRecord<>(Topics.PLAN_STEPS, step.planId(), codec.serialize(envelope))).get();
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
