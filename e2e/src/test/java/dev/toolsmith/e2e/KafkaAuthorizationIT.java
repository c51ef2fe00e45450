package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.planner.kafka.PlannerKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker {@code ./toolsmith up} starts authenticates every client and holds each principal to its topics
 * (docs/operations.md, "Kafka authentication"): a forged {@code plugin-built} is refused by the broker itself,
 * whoever but the engineer sends it, while a planner still sends steps and reads their results.
 */
@ExtendWith(Platform.class)
class KafkaAuthorizationIT {

    private static final byte[] FORGED_BUILD = "{\"forged\":\"plugin-built\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aForgedPluginBuiltFromAPlannerIsRefusedByTheBroker() {
        try (KafkaProducer<String, byte[]> planner = producer("planner")) {
            assertThatThrownBy(() -> planner.send(new ProducerRecord<>(Topics.PLUGIN_BUILT, "forged-tool", FORGED_BUILD)).get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void onlyTheEngineerWritesPluginBuiltAndOnlyTheLibrarianWritesApprovalsAndTheCatalog() {
        for (String principal : List.of("librarian", "capabilities-manager")) {
            try (KafkaProducer<String, byte[]> producer = producer(principal)) {
                assertThatThrownBy(() -> producer.send(new ProducerRecord<>(Topics.PLUGIN_BUILT, "forged-tool", FORGED_BUILD)).get())
                        .as(principal + " writing plugin-built").hasCauseInstanceOf(TopicAuthorizationException.class);
            }
        }
        for (String principal : List.of("engineer", "capabilities-manager", "planner")) {
            try (KafkaProducer<String, byte[]> producer = producer(principal)) {
                for (String topic : List.of(Topics.TOOL_APPROVED, Topics.TOOL_CATALOG)) {
                    assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "forged-tool", FORGED_BUILD)).get())
                            .as(principal + " writing " + topic).hasCauseInstanceOf(TopicAuthorizationException.class);
                }
            }
        }
    }

    @Test
    void aPlannerSendsStepsAndReadsTheirResults() {
        ContractCodec codec = new ContractCodec();
        String planId = "kafka-acl-" + UUID.randomUUID();
        PlanStep step = new PlanStep(UUID.randomUUID().toString(), planId, "EVALUATE_EXPRESSION", "add",
                Map.of("expression", StepInput.literal(JsonNodeFactory.instance.textNode("2 + 3"), "string")),
                Map.of(), "planner");
        Map<String, Object> login = Platform.get().kafkaLogin("planner");
        try (KafkaConsumer<String, byte[]> results = PlannerKafka.consumerAtEnd(Platform.kafka(), Topics.STEP_RESULTS,
                "planner-acl-it", login);
                KafkaProducer<String, byte[]> producer = PlannerKafka.producer(Platform.kafka(), login)) {
            // The write itself is what the broker decides: it must be acknowledged. Signed as every planner's step is.
            byte[] value = codec.serialize(codec.envelope(step, "/kafka-acl-it", planId));
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.PLAN_STEPS, planId, value);
            PlanStepSigner.of("planner", Platform.get().plannerKey()).headers(value).forEach(record.headers()::add);
            producer.send(record).get(30, TimeUnit.SECONDS);

            StepResult answer = null;
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (answer == null && System.nanoTime() < end) {
                for (ConsumerRecord<String, byte[]> received : results.poll(Duration.ofMillis(200))) {
                    StepResult result = codec.payload(codec.openEnvelope(received.value()), StepResult.class);
                    if (result.stepId().equals(step.stepId())) {
                        answer = result;
                    }
                }
            }
            assertThat(answer).as("the step's result, read by the planner from step-results").isNotNull();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aPlannerReadsNoOtherTopicAndJoinsOnlyItsOwnConsumerGroups() {
        try (KafkaConsumer<String, byte[]> otherTopic = consumer("planner", "planner-acl-it-" + UUID.randomUUID())) {
            otherTopic.subscribe(List.of(Topics.PLAN_STEPS));
            assertThatThrownBy(() -> pollFor(otherTopic)).isInstanceOf(TopicAuthorizationException.class);
        }
        // A service's group: joining it would take partitions from the service.
        try (KafkaConsumer<String, byte[]> serviceGroup = consumer("planner", "capabilities-manager")) {
            serviceGroup.subscribe(List.of(Topics.STEP_RESULTS));
            assertThatThrownBy(() -> pollFor(serviceGroup)).isInstanceOf(GroupAuthorizationException.class);
        }
    }

    @Test
    void aClientWithTheWrongPasswordIsNotLetIn() {
        Map<String, Object> config = new HashMap<>(PlannerKafka.login("planner", "not-the-password"));
        config.put("bootstrap.servers", Platform.kafka());
        config.put("default.api.timeout.ms", 20_000);
        config.put("request.timeout.ms", 10_000);
        try (Admin admin = Admin.create(config)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    private static void pollFor(KafkaConsumer<String, byte[]> consumer) {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < end) {
            consumer.poll(Duration.ofMillis(200));
        }
    }

    private static KafkaProducer<String, byte[]> producer(String principal) {
        // A refusal is an answer: no retries for it, and no long wait for metadata it may not see.
        return PlannerKafka.producer(Platform.kafka(), PlannerKafka.with(Platform.get().kafkaLogin(principal),
                Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000)));
    }

    private static KafkaConsumer<String, byte[]> consumer(String principal, String group) {
        Map<String, Object> config = new HashMap<>(Platform.get().kafkaLogin(principal));
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Platform.kafka());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return new KafkaConsumer<>(config);
    }
}
