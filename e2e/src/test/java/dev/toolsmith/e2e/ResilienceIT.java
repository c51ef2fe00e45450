package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.e2e.demo.AirlockAdmin;
import dev.toolsmith.e2e.demo.FxRatesApi;
import dev.toolsmith.testsupport.KafkaTestClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Crashes under load, over the real processes: 1,000 steps of a wrapped tool in flight when the
 * capabilities manager is killed with SIGKILL, or when the Kafka broker restarts. Every step must get
 * exactly one result (one result event: delivery is at least once, so an event published again after the
 * crash, with its id, counts once) and no conversion may reach the external API twice (each step converts
 * a unique amount, and the API counts them). And an engineer killed during a build finishes it after restart.
 */
@ExtendWith(Platform.class)
class ResilienceIT {

    private static final int STEPS = 1_000;
    private static final String VERB = "RESILIENCE_IT_CONVERT_AMOUNT";
    private static final Duration ALL_RESULTS = Duration.ofMinutes(6);

    private static FxRatesApi api;
    private static AirlockAdmin airlock;
    private static String sourceId;
    private static KafkaTestClient kafka;
    private static int nextAmount = 1;

    @BeforeAll
    static void approveTheConversionTool() {
        api = new FxRatesApi("fx-resilience-it", "resilienceIt_");
        airlock = new AirlockAdmin(Platform.librarian(), Platform.get().adminKey());
        sourceId = airlock.registerAndScan("resilience-it", api.documentUrl()).path("id").asText();
        JsonNode candidate = airlock.candidate(sourceId, VERB);
        airlock.approveAndAwaitActive(candidate, airlock.newObject(), Duration.ofMinutes(3));
        kafka = Platform.get().kafkaClient("planner");
        // The registry learns of the build from plugin-built: wait until it serves the verb.
        String plugin = Platform.capabilities() + "/plugins/" + candidate.path("toolId").asText();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            var response = given().header("X-API-Key", Platform.get().adminKey()).get(plugin);
            return response.statusCode() == 200 && "ENABLED".equals(response.path("status"));
        });
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void killingTheCapabilitiesManagerMidStreamLosesNoStepAndRepeatsNone() {
        Map<String, List<StepResult>> results = runBatch(conversions(STEPS), 0, () -> {
            Platform.get().kill("capabilities-manager");
            Platform.get().restartMissing();
        });
        assertExactlyOnce(results, STEPS);
    }

    /**
     * A rolling deployment's SIGTERM while a burst of internal-plugin steps runs: steps that fail as the
     * database pool closes under them are left for the restarted instance (they went to the dead-letter topic
     * before, without a result).
     */
    @Test
    void stoppingTheCapabilitiesManagerGracefullyMidStreamLosesNoStepAndRepeatsNone() {
        Map<String, List<StepResult>> results = runBatch(evaluations(3 * STEPS), 300, () -> {
            Platform.get().stop("capabilities-manager");
            Platform.get().restartMissing();
        });
        assertExactlyOnce(results, 3 * STEPS);
    }

    @Test
    void restartingTheBrokerMidStreamLosesNoStepAndRepeatsNone() {
        Map<String, List<StepResult>> results = runBatch(conversions(STEPS), 0, () -> {
            Platform.get().stopKafka();
            Thread.sleep(3_000);
            Platform.get().startKafka();
        });
        assertExactlyOnce(results, STEPS);
    }

    @Test
    void anEngineerKilledDuringABuildFinishesItAfterRestart() throws Exception {
        JsonNode candidate = airlock.candidate(sourceId, "RESILIENCE_IT_LIST_CURRENCIES");
        String toolId = candidate.path("toolId").asText();
        given().header("X-API-Key", Platform.get().adminKey()).contentType("application/json")
                .body(Map.of("policy", Map.of()))
                .post(Platform.librarian() + "/tools/pending/" + candidate.path("id").asText() + "/approve")
                .then().statusCode(200);
        // Kill as soon as the engineer has taken the job (received, generating or verifying).
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> builds(toolId).size() > 0);
        Platform.get().kill("engineer");
        Platform.get().restartMissing();

        await().atMost(Duration.ofMinutes(3)).until(() -> builds(toolId).stream().anyMatch(b -> "SUCCEEDED".equals(b.get("state"))));
        assertThat(builds(toolId)).as("one build job per approval, resumed rather than duplicated").hasSize(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> "ACTIVE".equals(given().header("X-API-Key", Platform.get().adminKey())
                .get(Platform.librarian() + "/tools/pending/" + candidate.path("id").asText()).then().extract().path("status")));
    }

    private static List<Map<String, Object>> builds(String toolId) {
        return given().header("X-API-Key", Platform.get().adminKey()).queryParam("toolId", toolId)
                .get(Platform.engineer() + "/builds").then().statusCode(200).extract().jsonPath().getList("items");
    }

    private static void assertExactlyOnce(Map<String, List<StepResult>> results, int steps) {
        assertThat(results).hasSize(steps);
        Map<String, Integer> repeatedResults = results.entrySet().stream().filter(e -> e.getValue().size() != 1)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()));
        assertThat(repeatedResults).as("steps with other than one result").isEmpty();
        assertThat(api.repeatedAmounts()).as("conversions executed twice").isEmpty();
        Map<StepStatus, Long> statuses = results.values().stream()
                .collect(Collectors.groupingBy(r -> r.get(0).status(), Collectors.counting()));
        // A step caught mid-call by the kill is answered FAILED ("interrupted, not re-run"), never re-run.
        assertThat(statuses.keySet()).as("statuses %s", statuses).isSubsetOf(StepStatus.SUCCEEDED, StepStatus.FAILED);
        results.values().stream().map(r -> r.get(0)).filter(r -> r.status() == StepStatus.FAILED)
                .forEach(r -> assertThat(r.error()).contains("interrupted"));
        assertThat(statuses.getOrDefault(StepStatus.SUCCEEDED, 0L)).as("statuses %s", statuses).isGreaterThan(steps * 9L / 10);
    }

    /** {@code count} steps, each converting a unique amount with the wrapped tool, spread over 20 plans. */
    private static List<PlanStep> conversions(int count) {
        List<PlanStep> steps = new ArrayList<>();
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < count; i++) {
            int amount = nextAmount++;
            steps.add(new PlanStep(run + "-" + i, "resilience-" + run + "-" + (i % 20), VERB, "convert",
                    Map.of("from", literal("EUR"), "to", literal("USD"),
                            "amount", StepInput.literal(JsonNodeFactory.instance.numberNode(amount), "number")),
                    Map.of(), "planner"));
        }
        return steps;
    }

    /** {@code count} steps of an internal plugin (the known-verb hot path), spread over 64 plans. */
    private static List<PlanStep> evaluations(int count) {
        List<PlanStep> steps = new ArrayList<>();
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (int i = 0; i < count; i++) {
            steps.add(new PlanStep(run + "-" + i, "resilience-eval-" + run + "-" + (i % 64), "EVALUATE_EXPRESSION",
                    "multiply", Map.of("expression", literal("a * b"), "variables", StepInput.literal(
                            JsonNodeFactory.instance.objectNode().put("a", i).put("b", 2), "object")),
                    Map.of(), "planner"));
        }
        return steps;
    }

    /**
     * Sends {@code steps}, all at once or {@code perSecond} a second (0: at once; a steady stream keeps steps
     * arriving while a service shuts down); runs {@code crash} once a tenth of the results are in; then
     * collects results until every step has one, plus a quiet period to catch duplicates.
     */
    private static Map<String, List<StepResult>> runBatch(List<PlanStep> steps, int perSecond, Crash crash) {
        ContractCodec codec = kafka.codec();
        Map<String, List<StepResult>> results = new HashMap<>();
        steps.forEach(step -> results.put(step.stepId(), new ArrayList<>()));
        int count = steps.size();
        try (KafkaTestClient.Reader reader = kafka.reader(Topics.STEP_RESULTS)) {
            reader.pollFor(Duration.ofSeconds(1));
            // All at once: every step is on the broker before the crash (the broker test stops it). Paced: a
            // thread keeps sending through the crash, and a failed send fails the test by name.
            CompletableFuture<Void> sent = perSecond == 0
                    ? CompletableFuture.runAsync(() -> send(steps, 0), Runnable::run)
                    : CompletableFuture.runAsync(() -> send(steps, perSecond));
            boolean crashed = false;
            long deadline = System.nanoTime() + ALL_RESULTS.toNanos();
            while (System.nanoTime() < deadline) {
                collect(codec, reader.pollFor(Duration.ofMillis(200)), results);
                if (sent.isCompletedExceptionally()) {
                    sent.join(); // throws why sending stopped, instead of waiting out the deadline
                }
                long answered = results.values().stream().filter(r -> !r.isEmpty()).count();
                if (!crashed && answered >= count / 10) {
                    crash.run();
                    crashed = true;
                }
                if (answered == count) {
                    break;
                }
            }
            collect(codec, reader.pollFor(Duration.ofSeconds(5)), results);
            sent.get(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return results;
    }

    private static void send(List<PlanStep> steps, int perSecond) {
        long start = System.nanoTime();
        for (int i = 0; i < steps.size(); i++) {
            PlanStep step = steps.get(i);
            kafka.send(Topics.PLAN_STEPS, step.planId(), step);
            if (perSecond > 0) {
                long due = start + i * 1_000_000_000L / perSecond;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
        }
    }

    private static void collect(ContractCodec codec, List<ConsumerRecord<String, byte[]>> records,
            Map<String, List<StepResult>> results) {
        results.values().forEach(List::clear);
        // Delivery is at least once: after a crash the outbox relay may publish an event again (same event
        // id, which consumers deduplicate). A step's result counts once per event id; a second result
        // event for one step would be a second execution or a second record, and is counted.
        Set<String> seenEvents = new HashSet<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            EventEnvelope envelope = codec.openEnvelope(record.value());
            StepResult result = codec.payload(envelope, StepResult.class);
            List<StepResult> forStep = results.get(result.stepId());
            if (forStep != null && seenEvents.add(envelope.id())) {
                forStep.add(result);
            }
        }
    }

    private static StepInput literal(String text) {
        return StepInput.literal(JsonNodeFactory.instance.textNode(text), "string");
    }

    @FunctionalInterface
    private interface Crash {
        void run() throws Exception;
    }
}
