package dev.toolsmith.capabilities;

import static dev.toolsmith.capabilities.support.Steps.inputs;
import static dev.toolsmith.capabilities.support.Steps.ref;
import static dev.toolsmith.capabilities.support.Steps.result;
import static dev.toolsmith.capabilities.support.Steps.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.step.AbandonedStepSweeper;
import dev.toolsmith.capabilities.step.FinishedStepWriter;
import dev.toolsmith.capabilities.support.CountingPlugin;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.capabilities.support.RelayLikeProducer;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Flow 1 through both doors, on the real broker and database. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class KnownVerbStepsTest {

    private static final String PLANNER = "planner-key";

    @Inject
    FinishedStepWriter finishedSteps;

    @Inject
    AbandonedStepSweeper sweeper;

    @Inject
    PluginRegistry registry;

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    @Test
    void internalPluginsAreRegisteredAndAnnouncedOnInternalPluginsForTheLibrarian() {
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader built = kafka.reader(Topics.INTERNAL_PLUGINS)) {
            List<String> verbs = List.of("QUERY_JSON", "RENDER_TEXT", "EVALUATE_EXPRESSION", "CONVERT_UNITS",
                    "SHIFT_DATE_TIME", "DATE_DIFFERENCE");
            built.awaitMatching(r -> false, Duration.ofSeconds(3));
            List<PluginBuilt> announced = built.envelopes().stream()
                    .map(e -> Steps.CODEC.payload(e, PluginBuilt.class)).toList();
            assertThat(announced).extracting(b -> b.plugin().verb()).containsAll(verbs);
            PluginBuilt units = announced.stream().filter(b -> b.plugin().verb().equals("CONVERT_UNITS")).findFirst()
                    .orElseThrow();
            assertThat(units.succeeded()).isTrue();
            assertThat(units.report().passed()).isTrue();
            assertThat(units.report().cases()).hasSize(2);
            assertThat(units.plugin().contentHash()).startsWith("sha256-jcs:");
            assertThat(units.plugin().inputSchema().path("required").toString()).contains("value", "from", "to");
            // announced once: a restart with the same content hash announces nothing new
            assertThat(announced.stream().filter(b -> b.plugin().verb().equals("CONVERT_UNITS"))).hasSize(1);
        }
        // plugin-built is the engineer's: no internal plugin is announced there (it would need an approval seal)
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader built = kafka.reader(Topics.PLUGIN_BUILT)) {
            assertThat(built.pollFor(Duration.ofSeconds(2))).noneMatch(r -> r.key() != null && r.key().startsWith("internal."));
        }
        assertThat(registry.byVerb("convertUnits")).hasValueSatisfying(p -> assertThat(p.toolId())
                .isEqualTo("internal.convert-units"));
        assertThat(registry.byVerb("DATE_DIFFERENCE")).isPresent();
    }

    @Test
    void aKnownVerbStepFromKafkaSucceedsAndItsResultIsPublishedKeyedByPlan() {
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            try (RelayLikeProducer relay = new RelayLikeProducer()) { // as another service's outbox would send it
                relay.send(Topics.PLAN_STEPS, plan, step("s1-" + plan, plan, "CONVERT_UNITS",
                        inputs("value", 10, "from", "km", "to", "mi")));
            }
            StepResult result = result(results, "s1-" + plan);
            assertThat(result.status()).isEqualTo(StepStatus.SUCCEEDED);
            assertThat(result.outputs().get("value").decimalValue()).isEqualByComparingTo("6.21371192237");
            assertThat(result.servedBy().toolId()).isEqualTo("internal.convert-units");
            assertThat(Steps.key(results, "s1-" + plan)).isEqualTo(plan);
        }
    }

    @Test
    void laterStepsReadEarlierOutputsAndAMissingReferenceFailsNamingIt() {
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("a-" + plan, plan, "EVALUATE_EXPRESSION",
                    inputs("expression", "price * 3", "variables", java.util.Map.of("price", 19.99))));
            kafka.send(Topics.PLAN_STEPS, plan, step("b-" + plan, plan, "RENDER_TEXT",
                    inputs("template", "Total: {{amount}} EUR", "values", java.util.Map.of("amount", "x"))));
            kafka.send(Topics.PLAN_STEPS, plan, step("c-" + plan, plan, "CONVERT_UNITS",
                    inputs("value", ref("a-" + plan, "result"), "from", "kg", "to", "lb")));
            kafka.send(Topics.PLAN_STEPS, plan, step("d-" + plan, plan, "CONVERT_UNITS",
                    inputs("value", ref("a-" + plan, "total"), "from", "kg", "to", "lb")));
            kafka.send(Topics.PLAN_STEPS, plan, step("e-" + plan, plan, "CONVERT_UNITS",
                    inputs("value", ref("nope-" + plan, "result"), "from", "kg", "to", "lb")));

            StepResult c = result(results, "c-" + plan);
            assertThat(c.status()).isEqualTo(StepStatus.SUCCEEDED);
            assertThat(c.outputs().get("value").decimalValue()).isEqualByComparingTo("132.211218632");

            StepResult d = result(results, "d-" + plan);
            assertThat(d.status()).isEqualTo(StepStatus.FAILED);
            assertThat(d.error()).contains("input 'value'", "output 'total'", "a-" + plan, "its outputs: result");

            StepResult e = result(results, "e-" + plan);
            assertThat(e.status()).isEqualTo(StepStatus.FAILED);
            assertThat(e.error()).contains("has no step 'nope-" + plan + "'");
        }
    }

    @Test
    void inputsThatBreakThePluginSchemaFailNamingTheField() {
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("bad-" + plan, plan, "CONVERT_UNITS",
                    inputs("value", "ten", "from", "km", "to", "mi")));
            kafka.send(Topics.PLAN_STEPS, plan, step("missing-" + plan, plan, "SHIFT_DATE_TIME",
                    inputs("dateTime", "2025-01-31")));
            StepResult bad = result(results, "bad-" + plan);
            assertThat(bad.status()).isEqualTo(StepStatus.FAILED);
            assertThat(bad.error()).startsWith("input /value:").contains("number");
            StepResult missing = result(results, "missing-" + plan);
            assertThat(missing.error()).startsWith("input /amount: is required");
        }
    }

    @Test
    void aRedeliveredOrResubmittedStepRunsOnceAndReturnsTheStoredResult() {
        String plan = id("plan");
        String key = id("count");
        PlanStep step = step("once-" + plan, plan, "TEST_COUNT", inputs("key", key));
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            EventEnvelope first = kafka.send(Topics.PLAN_STEPS, plan, step);
            kafka.send(Topics.PLAN_STEPS, plan, first); // a broker redelivery: same event id
            kafka.send(Topics.PLAN_STEPS, plan, step); // a planner resubmitting: same step id, new event
            assertThat(result(results, step.stepId()).outputs().get("runs").asInt()).isEqualTo(1);

            // the same caller through the other door (the Kafka records were signed by planner-test)
            given().header("X-API-Key", "planner-test-key").contentType("application/json")
                    .body(Steps.CODEC.toJson(step).toString())
                    .post("/steps").then().statusCode(200).body("outputs.runs", equalTo(1));

            assertThat(results.pollFor(Duration.ofSeconds(2)).stream()
                    .filter(r -> resultStepId(r).equals(step.stepId()))).hasSize(1);
            assertThat(CountingPlugin.runs(key)).isEqualTo(1);
        }
    }

    @Test
    void aMalformedMessageGoesToTheDeadLetterTopicAndTheNextStepStillRuns() {
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLAN_STEPS));
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.sendRaw(Topics.PLAN_STEPS, plan, "{not json".getBytes());
            kafka.sendRaw(Topics.PLAN_STEPS, plan, null); // a tombstone is no step either
            EventEnvelope noVerb = Steps.CODEC.envelope(step("x-" + plan, plan, "CONVERT_UNITS", inputs()), "/test", plan);
            com.fasterxml.jackson.databind.node.ObjectNode broken = Steps.CODEC.mapper().valueToTree(noVerb);
            ((com.fasterxml.jackson.databind.node.ObjectNode) broken.get("data")).remove("actionVerb");
            kafka.sendRaw(Topics.PLAN_STEPS, plan, broken.toString().getBytes());
            kafka.send(Topics.PLAN_STEPS, plan, step("ok-" + plan, plan, "DATE_DIFFERENCE",
                    inputs("from", "2025-01-01", "to", "2025-03-01")));

            assertThat(result(results, "ok-" + plan).outputs().get("amount").asInt()).isEqualTo(59);
            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(r -> plan.equals(r.key())
                    && dlq.headersOf(r).getOrDefault("dead-letter-reason", "").contains("actionVerb"),
                    Duration.ofSeconds(20));
            assertThat(dead).isNotEmpty();
            assertThat(dlq.pollFor(Duration.ZERO).stream().filter(r -> plan.equals(r.key()))
                    .map(r -> dlq.headersOf(r).get("dead-letter-reason"))).anyMatch(reason -> reason.contains("not valid JSON"))
                    .anyMatch(reason -> reason.contains("needs a value"));
        }
    }

    @Test
    void aStepWithANulInAnInputGetsAFailedResultNamingTheFieldNotADeadLetter() {
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("nul-" + plan, plan, "DATE_DIFFERENCE",
                    inputs("from", "2025-01-01\u0000", "to", "2025-03-01")));
            StepResult refused = result(results, "nul-" + plan);
            assertThat(refused.status()).isEqualTo(StepStatus.FAILED);
            assertThat(refused.error()).contains("/data/inputs/from").contains("NUL character (U+0000)")
                    .contains("nothing ran");
        }
    }

    @Test
    void theRestDoorRunsStepsAsTheAuthenticatedCallerAndListsAPlan() {
        String plan = id("plan");
        String body = Steps.CODEC.toJson(new PlanStep("r1-" + plan, plan, "QUERY_JSON", null,
                inputs("document", java.util.Map.of("items", List.of(java.util.Map.of("sku", "A1"))),
                        "path", "$.items[0].sku"), null, "someone-else")).toString();
        given().header("X-API-Key", PLANNER).contentType("application/json").body(body).post("/steps").then()
                .statusCode(200).body("status", equalTo("SUCCEEDED")).body("outputs.result", equalTo("A1"));
        given().header("X-API-Key", PLANNER).get("/steps/r1-" + plan).then().statusCode(200)
                .body("outputs.result", equalTo("A1"));
        given().header("X-API-Key", "viewer-key").get("/plans/" + plan + "/steps").then().statusCode(200)
                .body("stepId", hasItems("r1-" + plan)).body("[0].state", equalTo("DONE"));
        given().header("X-API-Key", PLANNER).get("/steps/unknown-" + plan).then().statusCode(404);

        // the step ran as the key's caller, not as the body claimed
        try (Connection db = db(); PreparedStatement q = db.prepareStatement(
                "SELECT caller FROM capabilities.step_execution WHERE step_id = ?")) {
            q.setString(1, "r1-" + plan);
            var rows = q.executeQuery();
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("planner-a");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theRestDoorRefusesBadInputAndWrongCallers() {
        given().contentType("application/json").body("{}").post("/steps").then().statusCode(401);
        given().header("X-API-Key", "viewer-key").contentType("application/json").body("{}").post("/steps").then()
                .statusCode(403);
        given().header("X-API-Key", PLANNER).contentType("application/json")
                .body("{\"stepId\": \"s\", \"planId\": \"p\"}").post("/steps").then().statusCode(400)
                .body("error", containsString("actionVerb"));
        given().header("X-API-Key", PLANNER).contentType("application/json").body("{oops").post("/steps").then()
                .statusCode(400).body("error", containsString("JSON"));
        given().header("X-API-Key", PLANNER).delete("/aliases/ANY").then().statusCode(403);
    }

    @Test
    void aStepAbandonedByACrashedInstanceIsFinishedAsFailedAndNeverRerun() throws Throwable {
        String plan = id("plan");
        String key = id("count");
        PlanStep step = step("crashed-" + plan, plan, "TEST_COUNT", inputs("key", key));
        try (Connection db = db(); PreparedStatement claim = db.prepareStatement(
                "INSERT INTO capabilities.step_execution (step_id, plan_id, action_verb, caller, state, claimed_at) "
                        + "VALUES (?, ?, 'TEST_COUNT', 'planner-test', 'IN_PROGRESS', now() - interval '1 hour')")) {
            claim.setString(1, step.stepId());
            claim.setString(2, plan);
            claim.executeUpdate(); // what an instance that died after claiming leaves behind
        }
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step); // the redelivery finds the claim and does not run it
            assertThat(Steps.results(results, step.stepId(), Duration.ofSeconds(3))).isEmpty();

            int swept = VertxContextSupport.subscribeAndAwait(() -> sweeper.sweepNow());
            assertThat(swept).isGreaterThanOrEqualTo(1);
            StepResult result = result(results, step.stepId());
            assertThat(result.status()).isEqualTo(StepStatus.FAILED);
            assertThat(result.error()).startsWith("interrupted");
            assertThat(CountingPlugin.runs(key)).isZero();
        }
    }

    @Test
    void twoWritersOfOneFinishedStepLeaveOneRowAndOneEvent() throws Throwable {
        String plan = id("plan");
        PlanStep step = step("race-" + plan, plan, "TEST_COUNT", inputs("key", id("count")));
        StepResult ran = new StepResult(step.stepId(), plan, StepStatus.SUCCEEDED,
                java.util.Map.of("runs", com.fasterxml.jackson.databind.node.IntNode.valueOf(1)), null, null, null, null,
                null, java.time.Instant.parse("2026-11-24T06:00:00Z"));

        boolean first = VertxContextSupport.subscribeAndAwait(() -> finishedSteps.insert(step, ran));
        boolean second = VertxContextSupport.subscribeAndAwait(() -> finishedSteps.insert(step, ran));

        assertThat(first).isTrue();
        assertThat(second).as("the second writer finds the row and writes nothing").isFalse();
        try (Connection db = db(); PreparedStatement events = db.prepareStatement(
                "SELECT count(*) FROM capabilities.outbox_event WHERE message_key = ? AND envelope LIKE ?")) {
            events.setString(1, plan);
            events.setString(2, "%" + step.stepId() + "%");
            try (var count = events.executeQuery()) {
                count.next();
                assertThat(count.getInt(1)).isEqualTo(1);
            }
        }
        var stored = VertxContextSupport.subscribeAndAwait(() -> finishedSteps.existing(step));
        assertThat(stored).hasValueSatisfying(outcome -> {
            assertThat(outcome.kind()).isEqualTo(dev.toolsmith.capabilities.step.StepOutcome.Kind.STORED);
            assertThat(outcome.result().outputs().get("runs").asInt()).isEqualTo(1);
            assertThat(outcome.result().completedAt()).isEqualTo(ran.completedAt());
        });
    }

    @Test
    void concurrentWritersShareStatementsAndAStepIdTwiceInOneGroupIsWrittenOnce() throws Throwable {
        String plan = id("plan");
        List<PlanStep> steps = new java.util.ArrayList<>(countingSteps(plan, 30));
        steps.add(12, steps.get(11)); // the same step id twice, deep in the queue: in one group
        List<StepResult> results = steps.stream()
                .map(s -> succeeded(s, com.fasterxml.jackson.databind.node.IntNode.valueOf(1))).toList();

        List<Boolean> written = VertxContextSupport.subscribeAndAwait(() -> io.smallrye.mutiny.Uni.join().all(
                java.util.stream.IntStream.range(0, steps.size())
                        .mapToObj(i -> finishedSteps.insert(steps.get(i), results.get(i))).toList()).andFailFast());

        assertThat(written).hasSize(31);
        assertThat(written.get(11)).as("the first writer of the doubled step id").isTrue();
        assertThat(written.get(12)).as("its second writer, in the same group").isFalse();
        assertThat(written.stream().filter(Boolean::booleanValue)).hasSize(30);
        try (Connection db = db(); PreparedStatement events = db.prepareStatement(
                "SELECT count(*), count(DISTINCT envelope::jsonb -> 'data' ->> 'stepId') FROM capabilities.outbox_event "
                        + "WHERE message_key = ?")) {
            events.setString(1, plan);
            try (var count = events.executeQuery()) {
                count.next();
                assertThat(count.getInt(1)).as("events").isEqualTo(30);
                assertThat(count.getInt(2)).as("steps announced").isEqualTo(30);
            }
        }
        var stored = VertxContextSupport.subscribeAndAwait(() -> io.smallrye.mutiny.Uni.join().all(
                steps.stream().map(finishedSteps::existing).toList()).andFailFast());
        assertThat(stored).allSatisfy(outcome -> assertThat(outcome).hasValueSatisfying(o ->
                assertThat(o.kind()).isEqualTo(dev.toolsmith.capabilities.step.StepOutcome.Kind.STORED)));
    }

    @Test
    void aStepTheDatabaseCannotStoreFailsAloneAndTheStepsGroupedWithItAreWritten() throws Throwable {
        List<PlanStep> steps = countingSteps(id("plan"), 12);
        int bad = 6; // deep in the queue: grouped with others
        List<StepResult> results = new java.util.ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            // PostgreSQL's jsonb cannot hold the NUL character
            results.add(succeeded(steps.get(i),
                    com.fasterxml.jackson.databind.node.TextNode.valueOf(i == bad ? "nul \u0000 here" : "fine")));
        }

        List<String> outcomes = VertxContextSupport.subscribeAndAwait(() -> io.smallrye.mutiny.Uni.join().all(
                java.util.stream.IntStream.range(0, steps.size())
                        .mapToObj(i -> finishedSteps.insert(steps.get(i), results.get(i))
                                .onItemOrFailure().transform((written, failure) -> failure != null ? "failed"
                                        : written ? "written" : "existed"))
                        .toList()).andFailFast());

        assertThat(outcomes.get(bad)).isEqualTo("failed");
        assertThat(outcomes).filteredOn("written"::equals).hasSize(steps.size() - 1);
    }

    /** {@code n} steps of one plan for the counting plugin. */
    private static List<PlanStep> countingSteps(String plan, int n) {
        return java.util.stream.IntStream.range(0, n)
                .mapToObj(i -> step("step-" + i + "-" + plan, plan, "TEST_COUNT", inputs("key", id("count")))).toList();
    }

    /** A successful result of {@code step} with one output, as a plugin run would give it. */
    private static StepResult succeeded(PlanStep step, com.fasterxml.jackson.databind.JsonNode output) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.SUCCEEDED, java.util.Map.of("out", output), null,
                null, null, null, null, java.time.Instant.now());
    }

    private static String resultStepId(ConsumerRecord<String, byte[]> record) {
        return Steps.CODEC.payload(Steps.CODEC.openEnvelope(record.value()), StepResult.class).stepId();
    }

    private static Connection db() throws java.sql.SQLException {
        return DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_capabilities"),
                PostgresTestResource.user(), PostgresTestResource.password());
    }
}
