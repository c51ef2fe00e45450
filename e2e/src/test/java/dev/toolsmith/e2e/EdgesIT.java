package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input at the edges of the running platform: refused with the right status, services unharmed. */
@ExtendWith(Platform.class)
class EdgesIT {

    @ParameterizedTest
    @ValueSource(strings = {Platform.LIBRARIAN_PORT + "", Platform.CAPABILITIES_PORT + "", Platform.ENGINEER_PORT + ""})
    void everyServiceIsHealthyAndServesItsContract(String port) {
        given().get("http://127.0.0.1:" + port + "/q/health/ready").then().statusCode(200);
        given().accept("application/json").get("http://127.0.0.1:" + port + "/q/openapi").then().statusCode(200);
    }

    @Test
    void unauthenticatedCallsGet401() {
        given().contentType("application/json").body("{\"queryText\":\"weather\"}")
                .post(Platform.librarian() + "/tools/search").then().statusCode(401);
        given().contentType("application/json").body("{}")
                .post(Platform.capabilities() + "/steps").then().statusCode(401);
        given().get(Platform.engineer() + "/builds").then().statusCode(401);
    }

    @Test
    void oversizedBodiesGet413() {
        String huge = "{\"queryText\":\"" + "x".repeat(2_000_000) + "\"}";
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.librarian() + "/tools/search").then().statusCode(413);
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.capabilities() + "/steps").then().statusCode(413);
    }

    @Test
    void malformedStepsGoToTheDeadLetterTopicWithTheReasonAndDoNotBlockThePartition() {
        String planId = "edges-" + UUID.randomUUID();
        // A planner sends and reads its results; only the admin may look into the dead-letter topic.
        try (KafkaTestClient kafka = Platform.get().kafkaClient("planner");
                KafkaTestClient admin = Platform.get().kafkaClient("admin");
                KafkaTestClient.Reader dlq = admin.reader(Topics.PLAN_STEPS + ".dlq");
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            String marker = "not json " + planId;
            kafka.sendRaw(Topics.PLAN_STEPS, planId, marker.getBytes(StandardCharsets.UTF_8));
            // Same key, so the same partition: it must still flow after the bad record.
            PlanStep good = new PlanStep(UUID.randomUUID().toString(), planId, "EVALUATE_EXPRESSION", "add",
                    Map.of("expression", StepInput.literal(JsonNodeFactory.instance.textNode("1 + 2"), "string")),
                    Map.of(), "planner");
            kafka.send(Topics.PLAN_STEPS, planId, good);

            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(
                    r -> new String(r.value(), StandardCharsets.UTF_8).equals(marker), Duration.ofSeconds(60));
            assertThat(dead).hasSize(1);
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason")).isNotBlank();

            List<ConsumerRecord<String, byte[]>> answered = results.awaitMatching(r -> good.stepId()
                    .equals(result(kafka, r).stepId()), Duration.ofSeconds(60));
            assertThat(answered).hasSize(1);
            assertThat(result(kafka, answered.get(0)).status()).isEqualTo(StepStatus.SUCCEEDED);
        }
    }

    @Test
    void aStepWithoutThePlannersSignatureIsDeadLetteredAndNeverRuns() {
        String planId = "edges-unsigned-" + UUID.randomUUID();
        // Logged in to the broker as the planner, but not signing: the broker lets it write plan-steps, the
        // capabilities manager does not run it (the step's caller comes from the signature, not from its body).
        try (KafkaTestClient unsigned = new KafkaTestClient(Platform.kafka(), null, Platform.get().kafkaLogin("planner"),
                "planner-test-");
                KafkaTestClient admin = Platform.get().kafkaClient("admin");
                KafkaTestClient.Reader dlq = admin.reader(Topics.PLAN_STEPS + ".dlq");
                KafkaTestClient.Reader results = unsigned.reader(Topics.STEP_RESULTS)) {
            PlanStep step = new PlanStep(UUID.randomUUID().toString(), planId, "EVALUATE_EXPRESSION", "add",
                    Map.of("expression", StepInput.literal(JsonNodeFactory.instance.textNode("1 + 2"), "string")),
                    Map.of(), "planner");
            unsigned.send(Topics.PLAN_STEPS, planId, step);

            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(r -> planId.equals(r.key()), Duration.ofSeconds(60));
            assertThat(dead).hasSize(1);
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason")).startsWith("unsigned plan step");
            assertThat(results.pollFor(Duration.ofSeconds(2))).noneMatch(r -> step.stepId().equals(result(unsigned, r).stepId()));
        }
    }

    private static StepResult result(KafkaTestClient kafka, ConsumerRecord<String, byte[]> record) {
        return kafka.codec().payload(kafka.codec().openEnvelope(record.value()), StepResult.class);
    }
}
