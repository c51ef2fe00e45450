package dev.toolsmith.capabilities;

import static dev.toolsmith.capabilities.support.Steps.inputs;
import static dev.toolsmith.capabilities.support.Steps.result;
import static dev.toolsmith.capabilities.support.Steps.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.capabilities.support.RelayLikeProducer;
import dev.toolsmith.capabilities.support.ScriptedLibrarian;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Flows 2 and 3: search, substitution, aliases, proposals, decomposition and gaps, with a scripted librarian. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class NovelVerbTest {

    private final ScriptedLibrarian librarian = ScriptedLibrarian.get();

    @Inject
    PluginRegistry registry;

    static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    static SearchHit hit(String toolId, String verb, double confidence, Risk risk) {
        return new SearchHit(toolId, verb, verb.toLowerCase(), "a tool", confidence * 10, confidence,
                List.of("semantic"), risk, 1);
    }

    static SearchReply reply(SearchRequest request, double threshold, SearchHit... hits) {
        return new SearchReply(request.requestId(), List.of(hits), threshold, null);
    }

    @Test
    void aConfidentSafeMatchIsSubstitutedAndTheVerbIsLearnedUntilForgotten() {
        String verb = "CHANGE_MEASUREMENT_UNIT";
        librarian.answer(verb, request -> reply(request, 0.6,
                hit("internal.date-difference", "DATE_DIFFERENCE", 0.31, Risk.READ_ONLY),
                hit("internal.convert-units", "CONVERT_UNITS", 0.91, Risk.READ_ONLY)));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            PlanStep first = new PlanStep("n1-" + plan, plan, verb, "how far is 5 miles in km",
                    inputs("quantity", 5, "sourceUnit", "mi", "targetUnit", "km"), null, "planner-test");
            kafka.send(Topics.PLAN_STEPS, plan, first);
            StepResult substituted = result(results, first.stepId());
            assertThat(substituted.status()).isEqualTo(StepStatus.SUBSTITUTED);
            assertThat(substituted.outputs().get("value").decimalValue()).isEqualByComparingTo("8.04672");
            assertThat(substituted.servedBy().verb()).isEqualTo("CONVERT_UNITS");
            assertThat(substituted.substitution().fromVerb()).isEqualTo(verb);
            assertThat(substituted.substitution().confidence()).isEqualTo(0.91);
            assertThat(substituted.substitution().viaAlias()).isFalse();
            assertThat(substituted.substitution().inputMapping())
                    .isEqualTo(Map.of("value", "quantity", "from", "sourceUnit", "to", "targetUnit"));

            SearchRequest asked = librarian.requestsFor(verb).get(0);
            assertThat(asked.requestId()).isEqualTo(first.stepId());
            assertThat(asked.queryText()).isEqualTo("change measurement unit how far is 5 miles in km");
            assertThat(asked.contextEntities()).containsExactly("quantity", "sourceUnit", "targetUnit");
            assertThat(asked.caller()).isEqualTo("planner-test");

            // the second step with the verb takes the known-verb path: no search
            kafka.send(Topics.PLAN_STEPS, plan, step("n2-" + plan, plan, verb,
                    inputs("quantity", 1, "sourceUnit", "kg", "targetUnit", "g")));
            StepResult viaAlias = result(results, "n2-" + plan);
            assertThat(viaAlias.status()).isEqualTo(StepStatus.SUBSTITUTED);
            assertThat(viaAlias.substitution().viaAlias()).isTrue();
            assertThat(viaAlias.outputs().get("value").decimalValue()).isEqualByComparingTo("1000");
            assertThat(librarian.requestsFor(verb)).hasSize(1);

            given().header("X-API-Key", "viewer-key").get("/aliases").then().statusCode(200)
                    .body("verb", hasItem("change measurement unit"));
            given().header("X-API-Key", "admin-key").delete("/aliases/changeMeasurementUnit").then().statusCode(204);
            given().header("X-API-Key", "admin-key").delete("/aliases/changeMeasurementUnit").then().statusCode(404);

            kafka.send(Topics.PLAN_STEPS, plan, step("n3-" + plan, plan, verb,
                    inputs("quantity", 2, "sourceUnit", "h", "targetUnit", "min")));
            assertThat(result(results, "n3-" + plan).substitution().viaAlias()).isFalse();
            assertThat(librarian.requestsFor(verb)).hasSize(2);
        }
    }

    @Test
    void aWrappedPluginArrivesFromPluginBuiltAndARiskyMatchIsOnlyProposed() {
        String toolId = "sms-api.send";
        ToolManifest sms = new ToolManifest(toolId, "SEND_TEXT_MESSAGE", "Send SMS", "Send a text message to a phone",
                ToolSourceType.OPENAPI, "sms", "messaging", List.of("sms"),
                Steps.json("{\"type\": \"object\", \"required\": [\"phoneNumber\", \"text\"], \"properties\": "
                        + "{\"phoneNumber\": {\"type\": \"string\", \"x-aliases\": [\"recipient\"]}, \"text\": {\"type\": \"string\"}}}"),
                Steps.json("{\"type\": \"object\"}"), Risk.WRITE_REMOTE,
                new HttpBinding("POST", "http://127.0.0.1:9", "/sms", List.of(
                        new ParameterBinding("phoneNumber", "to", ParameterLocation.BODY, null, null, true),
                        new ParameterBinding("text", "text", ParameterLocation.BODY, null, null, true)),
                        null, null, 0, 0), null, 1, null);
        try (KafkaTestClient kafka = Steps.kafka();
                RelayLikeProducer engineer = new RelayLikeProducer();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            engineer.send(Topics.PLUGIN_BUILT, "broken.tool", new PluginBuilt("broken.tool", 1, false, null, null,
                    null, "verification failed: 2 of 5 cases", null));
            engineer.send(Topics.PLUGIN_BUILT, toolId, TestApprovals.built(sms,
                    new UsagePolicy(new UsagePolicy.RateLimit(5.0, null, 10), null, null, List.of("planner-a"), null),
                    1, new VerificationReport(true, List.of(), 12)));
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(toolId).isPresent());
            Plugin registered = registry.byToolId(toolId).orElseThrow();
            assertThat(registered.type()).isEqualTo(PluginType.WRAPPED_HTTP);
            assertThat(registered.status()).isEqualTo(PluginStatus.ENABLED);
            assertThat(registered.policy().path("allowedCallers").get(0).asText()).isEqualTo("planner-a");
            assertThat(registry.byVerb("sendTextMessage")).isPresent();
            assertThat(registry.byToolId("broken.tool")).isEmpty();

            String verb = "NOTIFY_CUSTOMER";
            librarian.answer(verb, request -> reply(request, 0.6, hit(toolId, "SEND_TEXT_MESSAGE", 0.95, Risk.WRITE_REMOTE)));
            String plan = id("plan");
            kafka.send(Topics.PLAN_STEPS, plan, step("p1-" + plan, plan, verb,
                    inputs("recipient", "+33600000000", "text", "Your table is ready")));
            StepResult proposed = result(results, "p1-" + plan);
            assertThat(proposed.status()).isEqualTo(StepStatus.PROPOSED);
            assertThat(proposed.servedBy()).isNull();
            assertThat(proposed.candidates()).extracting(SearchHit::toolId).containsExactly(toolId);
            assertThat(proposed.substitution().inputMapping()).isEqualTo(Map.of("phoneNumber", "recipient", "text", "text"));
            assertThat(proposed.error()).contains("WRITE_REMOTE", "SEND_TEXT_MESSAGE");
            given().header("X-API-Key", "viewer-key").get("/aliases").then().body("verb", not(hasItem("notify customer")));

            engineer.send(Topics.PLUGIN_STATUS, toolId, new PluginStatusChanged(toolId, PluginStatus.DISABLED,
                    "5 failed probes", "health", Instant.now()));
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(toolId)
                    .map(p -> p.status() == PluginStatus.DISABLED).orElse(false));
            assertThat(registry.byToolId(toolId).orElseThrow().statusReason()).isEqualTo("5 failed probes");
        }
    }

    @Test
    void withoutAConfidentMatchTheLlmDecomposesTheStepIntoRegisteredVerbs() {
        String verb = "PLAN_PARTY_BUDGET";
        librarian.answer(verb, request -> reply(request, 0.6, hit("internal.evaluate-expression", "EVALUATE_EXPRESSION",
                0.22, Risk.READ_ONLY)));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, new PlanStep("d1-" + plan, plan, verb, "budget for 12 guests at 25 EUR",
                    inputs("guests", 12), null, "planner-test"));
            StepResult decomposed = result(results, "d1-" + plan);
            assertThat(decomposed.status()).isEqualTo(StepStatus.DECOMPOSED);
            assertThat(decomposed.plan()).extracting(PlanStep::stepId)
                    .containsExactly("d1-" + plan + ".total", "d1-" + plan + ".invite");
            assertThat(decomposed.plan()).extracting(PlanStep::actionVerb)
                    .containsExactly("EVALUATE_EXPRESSION", "RENDER_TEXT");
            assertThat(decomposed.plan().get(1).inputs().get("values").sourceStep()).isEqualTo("d1-" + plan + ".total");
            assertThat(decomposed.plan()).allMatch(s -> s.planId().equals(plan) && "planner-test".equals(s.caller()));
        }
    }

    @Test
    void aPlanWithAnUnknownVerbIsSentBackOnceAndTheCorrectedPlanIsReturned() {
        String verb = "ESTIMATE_COMMUTE_COST";
        librarian.answer(verb, request -> reply(request, 0.6));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("c1-" + plan, plan, verb, inputs("km", 42)));
            StepResult decomposed = result(results, "c1-" + plan);
            assertThat(decomposed.status()).isEqualTo(StepStatus.DECOMPOSED);
            assertThat(decomposed.plan()).extracting(PlanStep::actionVerb).containsExactly("EVALUATE_EXPRESSION");
            RecordedLlmResource.server().verify(WireMock.postRequestedFor(WireMock.urlPathEqualTo("/v1/chat/completions"))
                    .withRequestBody(WireMock.containing("Step to decompose: ESTIMATE_COMMUTE_COST"))
                    .withRequestBody(WireMock.containing("FETCH_FUEL_PRICE', which is not registered")));
        }
    }

    @Test
    void aMalformedLlmAnswerEndsUnresolvedWithCandidatesAndACountedCapabilityGap() {
        String verb = "SUMMARISE_MOOD";
        SearchHit weak = hit("internal.render-text", "RENDER_TEXT", 0.18, Risk.READ_ONLY);
        librarian.answer(verb, request -> reply(request, 0.6, weak));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS);
                KafkaTestClient.Reader gaps = kafka.reader(Topics.CAPABILITY_GAPS)) {
            kafka.send(Topics.PLAN_STEPS, plan, new PlanStep("m1-" + plan, plan, verb, "how do the messages feel",
                    inputs("messages", List.of("great!", "meh")), null, "planner-test"));
            StepResult unresolved = result(results, "m1-" + plan);
            assertThat(unresolved.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(unresolved.candidates()).extracting(SearchHit::toolId).containsExactly("internal.render-text");
            assertThat(unresolved.error()).contains("confidence 0.18 < threshold 0.60", "rejected twice", "not a JSON object");

            kafka.send(Topics.PLAN_STEPS, plan, step("m2-" + plan, plan, verb, inputs("messages", List.of("ok"))));
            result(results, "m2-" + plan);
            List<CapabilityGap> seen = gaps.awaitMatching(r -> "summarise mood".equals(r.key())
                    && gap(r.value()).timesSeen() == 2, Duration.ofSeconds(20)).stream().map(r -> gap(r.value())).toList();
            assertThat(seen).isNotEmpty();
            CapabilityGap second = seen.get(0);
            assertThat(second.actionVerb()).isEqualTo(verb);
            assertThat(second.inputNames()).containsExactly("messages");
            assertThat(second.candidates()).extracting(SearchHit::toolId).containsExactly("internal.render-text");
            given().header("X-API-Key", "viewer-key").get("/gaps").then().statusCode(200)
                    .body("find { it.normalizedVerb == 'summarise mood' }.timesSeen", equalTo(2));
            // A limit out of range is refused, not silently clamped to something else.
            given().header("X-API-Key", "viewer-key").get("/gaps?limit=-1").then().statusCode(400)
                    .body("error", equalTo("limit: -1 is outside 1..1000"));
            given().header("X-API-Key", "viewer-key").get("/gaps?limit=1001").then().statusCode(400);
        }
    }

    @Test
    void byDefaultInputsThatAreExactlyTheToolsParametersDoNotLowerTheThreshold() {
        // the contract-confirmed rule is off unless configured (ContractConfirmedRuleTest): below the threshold a
        // hit is not substituted, however well the step's inputs name its parameters
        String verb = "RESCALE_AMOUNT";
        librarian.answer(verb, request -> reply(request, 0.95, hit("internal.convert-units", "CONVERT_UNITS", 0.9,
                Risk.READ_ONLY)));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("d1-" + plan, plan, verb, inputs("value", 3, "from", "km", "to", "m")));
            StepResult result = result(results, "d1-" + plan);
            assertThat(result.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(result.error()).contains("confidence 0.90 < threshold 0.95").doesNotContain("exactly its parameters");
        }
    }

    @Test
    void aRequiredInputThatCannotBeMappedPreventsSubstitution() {
        String verb = "MEASURE_SOMETHING";
        librarian.answer(verb, request -> reply(request, 0.6, hit("internal.convert-units", "CONVERT_UNITS", 0.93,
                Risk.READ_ONLY)));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("u1-" + plan, plan, verb, inputs("colour", "red")));
            StepResult result = result(results, "u1-" + plan);
            assertThat(result.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(result.error()).contains("CONVERT_UNITS needs inputs this step lacks: value, from, to");
        }
    }

    @Test
    void aSilentLibrarianMeansUnresolvedAfterTheTimeoutAndRestAnswers202First() {
        String verb = "ASK_NOBODY";
        String plan = id("plan");
        String body = Steps.CODEC.toJson(step("q1-" + plan, plan, verb, inputs("x", 1))).toString();
        given().header("X-API-Key", "planner-key").contentType("application/json").body(body)
                .queryParam("waitMs", -5).post("/steps").then().statusCode(400)
                .body("error", equalTo("waitMs: -5 is below 0"));
        long start = System.nanoTime();
        given().header("X-API-Key", "planner-key").contentType("application/json").body(body)
                .queryParam("waitMs", 200).post("/steps").then().statusCode(202)
                .header("Location", org.hamcrest.Matchers.endsWith("/steps/q1-" + plan))
                .body("state", equalTo("IN_PROGRESS"));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", "planner-key")
                .get("/steps/q1-" + plan).then().statusCode(200).body("status", equalTo("UNRESOLVED"))
                .body("error", org.hamcrest.Matchers.containsString("the librarian did not answer within 1500 ms")));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    private static CapabilityGap gap(byte[] raw) {
        return Steps.CODEC.payload(Steps.CODEC.openEnvelope(raw), CapabilityGap.class);
    }
}
