package dev.toolsmith.capabilities;

import static dev.toolsmith.capabilities.support.Steps.inputs;
import static dev.toolsmith.capabilities.support.Steps.ref;
import static dev.toolsmith.capabilities.support.Steps.result;
import static dev.toolsmith.capabilities.support.Steps.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import dev.toolsmith.capabilities.support.CountingPlugin;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Steps belong to their caller (issue 18, finding 4): a step id is the first sender's; nobody else gets its
 * result, reads it, or runs under it; and who sent a Kafka step is what its signature proves, not what its
 * body says. Same test resources as {@link KnownVerbStepsTest}, so the two share one application.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class StepOwnershipTest {

    /** planner-a's key; planner-test ({@link Steps#SIGNER}) is the other planner. */
    private static final String OWNER_KEY = "planner-key";
    private static final String OTHER_KEY = "planner-test-key";

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    @Test
    void anotherCallerReusingAStepIdGets409AndNeverTheOwnersResultWhicheverWayTheStepRuns() {
        String plan = id("plan");
        String key = id("count");
        // the hot path (a side-effect-free plugin on literal inputs)
        PlanStep owned = step("mine-" + plan, plan, "TEST_COUNT", inputs("key", key));
        post(OWNER_KEY, owned).then().statusCode(200).body("outputs.runs", equalTo(1));

        Response reused = post(OTHER_KEY, step(owned.stepId(), id("their-plan"), "TEST_COUNT", inputs("key", key)));
        reused.then().statusCode(409)
                .body("status", equalTo(409))
                .body("error", containsString("step id '" + owned.stepId() + "' is already used by another caller"));
        assertThat(reused.asString()).doesNotContain("planner-a", "runs");

        // one transaction (inputs that reference an earlier step) and claim first (a verb nothing serves)
        PlanStep referring = step("ref-" + plan, plan, "TEST_COUNT", inputs("key", ref(owned.stepId(), "runs")));
        post(OWNER_KEY, referring).then().statusCode(200);
        post(OTHER_KEY, referring).then().statusCode(409).body("error", containsString("another caller"));
        PlanStep novel = step("novel-" + plan, plan, "FOLD_THE_LAUNDRY_" + UUID.randomUUID().toString().substring(0, 8)
                .toUpperCase(), inputs("basket", "blue"));
        post(OWNER_KEY, novel).then().statusCode(200);
        post(OTHER_KEY, novel).then().statusCode(409).body("error", containsString("another caller"));

        // the owner resubmitting still gets its stored result and nothing runs again
        post(OWNER_KEY, owned).then().statusCode(200).body("outputs.runs", equalTo(1));
        assertThat(CountingPlugin.runs(key)).isEqualTo(1);
        assertThat(ownerOf(owned.stepId())).isEqualTo("planner-a");
    }

    @Test
    void aCallerSeesOnlyItsOwnStepsAndAdminsAndViewersSeeAll() {
        String plan = id("plan");
        PlanStep mine = step("a-" + plan, plan, "TEST_COUNT", inputs("key", id("count")));
        PlanStep theirs = step("b-" + plan, plan, "TEST_COUNT", inputs("key", id("count")));
        post(OWNER_KEY, mine).then().statusCode(200);
        post(OTHER_KEY, theirs).then().statusCode(200);

        // another caller's step is as unknown as one never sent
        Response foreign = given().header("X-API-Key", OTHER_KEY).get("/steps/" + mine.stepId());
        Response unknown = given().header("X-API-Key", OTHER_KEY).get("/steps/" + mine.stepId() + "-never");
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(foreign.asString()).isEqualTo(unknown.asString().replace("-never", ""));
        given().header("X-API-Key", OWNER_KEY).get("/steps/" + mine.stepId()).then().statusCode(200)
                .body("outputs.runs", equalTo(1));

        given().header("X-API-Key", OWNER_KEY).get("/plans/" + plan + "/steps").then().statusCode(200)
                .body("stepId", equalTo(List.of(mine.stepId())));
        given().header("X-API-Key", OTHER_KEY).get("/plans/" + plan + "/steps").then().statusCode(200)
                .body("stepId", equalTo(List.of(theirs.stepId())));
        given().header("X-API-Key", "service-key").get("/plans/" + plan + "/steps").then().statusCode(200)
                .body("$", empty());
        for (String seesAll : List.of("admin-key", "viewer-key")) {
            given().header("X-API-Key", seesAll).get("/plans/" + plan + "/steps").then().statusCode(200)
                    .body("stepId", hasItems(mine.stepId(), theirs.stepId()));
            given().header("X-API-Key", seesAll).get("/steps/" + mine.stepId()).then().statusCode(200);
        }

        // nor can another caller's step read its outputs through a reference in the same plan
        PlanStep peeking = step("peek-" + plan, plan, "TEST_COUNT", inputs("key", ref(mine.stepId(), "runs")));
        post(OTHER_KEY, peeking).then().statusCode(200).body("status", equalTo("FAILED"))
                .body("error", containsString("has no step '" + mine.stepId() + "'"));
    }

    @Test
    void aKafkaStepReusingAnotherCallersIdGetsAFailedResultNamingTheConflictAndTheOwnersStepIsUntouched() {
        String plan = id("plan");
        String key = id("count");
        PlanStep owned = step("k-" + plan, plan, "TEST_COUNT", inputs("key", key));
        post(OWNER_KEY, owned).then().statusCode(200).body("outputs.runs", equalTo(1));
        String storedBefore = storedResultOf(owned.stepId());

        String theirPlan = id("their-plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS);
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLAN_STEPS))) {
            // signed by planner-test; its body even claims to be the owner
            kafka.send(Topics.PLAN_STEPS, theirPlan, new PlanStep(owned.stepId(), theirPlan, "TEST_COUNT", null,
                    inputs("key", key), null, "planner-a"));
            // the owner's own result is on the topic too (REST results are published): wait for the other plan's
            List<StepResult> answered = results.awaitMatching(r -> owned.stepId().equals(resultOf(r).stepId())
                    && theirPlan.equals(resultOf(r).planId()), Duration.ofSeconds(20)).stream()
                    .map(StepOwnershipTest::resultOf).toList();

            assertThat(answered).hasSize(1);
            StepResult conflict = answered.get(0);
            assertThat(conflict.status()).isEqualTo(StepStatus.FAILED);
            assertThat(conflict.error()).contains("step id '" + owned.stepId() + "' is already used by another caller")
                    .doesNotContain("planner-a");
            assertThat(conflict.outputs()).isNullOrEmpty();
            assertThat(dlq.pollFor(Duration.ofMillis(500))).noneMatch(r -> theirPlan.equals(r.key()));
        }
        assertThat(CountingPlugin.runs(key)).isEqualTo(1);
        assertThat(ownerOf(owned.stepId())).isEqualTo("planner-a");
        assertThat(storedResultOf(owned.stepId())).isEqualTo(storedBefore);
        given().header("X-API-Key", OWNER_KEY).get("/steps/" + owned.stepId()).then().statusCode(200)
                .body("planId", equalTo(plan)).body("outputs.runs", equalTo(1));
    }

    @Test
    void kafkaStepsRunAsTheCallerTheirSignatureProvesAndUnsignedOrForgedOnesAreDeadLetteredUnrun() {
        String plan = id("plan");
        Map<String, PlanStepSigner> senders = new java.util.LinkedHashMap<>();
        senders.put("unsigned", null);
        senders.put("forged", PlanStepSigner.of("planner-a", "not-planner-a's-key"));
        senders.put("unknown", PlanStepSigner.of("mallory", "mallory-key"));
        senders.put("viewer", PlanStepSigner.of("victor", "viewer-key"));
        Map<String, String> reasons = Map.of("unsigned", "unsigned plan step", "forged", "signature does not match",
                "unknown", "caller 'mallory' may not send plan steps", "viewer", "caller 'victor' may not send plan steps");
        String key = id("count");

        try (KafkaTestClient reader = Steps.kafka();
                KafkaTestClient.Reader dlq = reader.reader(Topics.deadLetter(Topics.PLAN_STEPS));
                KafkaTestClient.Reader results = reader.reader(Topics.STEP_RESULTS)) {
            senders.forEach((name, signer) -> {
                try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers(), signer)) {
                    kafka.send(Topics.PLAN_STEPS, plan, new PlanStep(name + "-" + plan, plan, "TEST_COUNT", null,
                            inputs("key", key), null, "planner-a"));
                }
            });
            // signed by planner-test and claiming to be someone else in its body: runs as planner-test
            try (KafkaTestClient kafka = Steps.kafka()) {
                kafka.send(Topics.PLAN_STEPS, plan, new PlanStep("signed-" + plan, plan, "TEST_COUNT", null,
                        inputs("key", id("count")), null, "planner-a"));
            }
            assertThat(result(results, "signed-" + plan).status()).isEqualTo(StepStatus.SUCCEEDED);
            assertThat(ownerOf("signed-" + plan)).isEqualTo(Steps.PLANNER_TEST);

            await(() -> dlq.pollFor(Duration.ofMillis(200)).stream().filter(r -> plan.equals(r.key())).count() >= 4);
            List<ConsumerRecord<String, byte[]>> dead = dlq.pollFor(Duration.ZERO).stream()
                    .filter(r -> plan.equals(r.key())).toList();
            assertThat(dead).hasSize(4);
            for (ConsumerRecord<String, byte[]> record : dead) {
                String value = new String(record.value(), StandardCharsets.UTF_8);
                String name = senders.keySet().stream().filter(n -> value.contains("\"" + n + "-" + plan + "\""))
                        .findFirst().orElseThrow();
                assertThat(dlq.headersOf(record).get("dead-letter-reason")).as(name).contains(reasons.get(name));
            }
            assertThat(results.pollFor(Duration.ofMillis(500))).noneMatch(r -> {
                String id = resultStepId(r);
                return senders.keySet().stream().anyMatch(n -> id.equals(n + "-" + plan));
            });
        }
        assertThat(CountingPlugin.runs(key)).as("no refused step ran").isZero();
        for (String name : senders.keySet()) {
            assertThat(ownerOf(name + "-" + plan)).as(name + " left no row").isNull();
        }
    }

    private static Response post(String apiKey, PlanStep step) {
        return given().header("X-API-Key", apiKey).contentType("application/json")
                .body(Steps.CODEC.toJson(step).toString()).post("/steps");
    }

    private static StepResult resultOf(ConsumerRecord<String, byte[]> record) {
        return Steps.CODEC.payload(Steps.CODEC.openEnvelope(record.value()), StepResult.class);
    }

    private static String resultStepId(ConsumerRecord<String, byte[]> record) {
        return resultOf(record).stepId();
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(condition);
    }

    /** The caller a step id belongs to, or null when there is no such step. */
    private static String ownerOf(String stepId) {
        return column("caller", stepId);
    }

    private static String storedResultOf(String stepId) {
        return column("result::text", stepId);
    }

    private static String column(String expression, String stepId) {
        try (Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_capabilities"),
                PostgresTestResource.user(), PostgresTestResource.password());
                PreparedStatement q = db.prepareStatement(
                        "SELECT " + expression + " FROM capabilities.step_execution WHERE step_id = ?")) {
            q.setString(1, stepId);
            try (ResultSet rows = q.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
