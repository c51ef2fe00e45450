package dev.toolsmith.e2e.demo;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.e2e.TopicPositions;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The planner's side of Kafka: plan steps out on {@code plan-steps}, their results back from {@code step-results}. */
final class PlanStepChannel implements AutoCloseable {

    private final ContractCodec codec = new ContractCodec();
    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> results;

    PlanStepChannel(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p);
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "toolsmith-demo-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        results = new KafkaConsumer<>(c);
        TopicPositions.subscribeAtEnd(results, Topics.STEP_RESULTS, Duration.ofSeconds(30));
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
