package dev.toolsmith.capabilities;

import static dev.toolsmith.capabilities.support.Steps.inputs;
import static dev.toolsmith.capabilities.support.Steps.result;
import static dev.toolsmith.capabilities.support.Steps.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolsmith.capabilities.support.CollectedSpans;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.capabilities.support.ScriptedLibrarian;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * One step followed through its trace: the planner's traceparent on the way in, the search request to the
 * librarian, the step result, and the spans in between.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class StepTracingTest {

    /** The planner's span: the parent the step's span must continue. */
    private static final String PLANNER_SPAN = "00f067aa0ba902b7";

    private final ScriptedLibrarian librarian = ScriptedLibrarian.get();

    @Inject
    CollectedSpans spans;

    /** A W3C traceparent ("00-trace id-span id-flags"), split. */
    private record Traceparent(String traceId, String spanId) {

        static Traceparent of(EventEnvelope envelope) {
            assertThat(envelope.traceparent()).as("traceparent of %s", envelope.type())
                    .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
            String[] parts = envelope.traceparent().split("-");
            return new Traceparent(parts[1], parts[2]);
        }
    }

    private static String newTraceId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }

    @Test
    void aSubstitutedNovelVerbStepKeepsThePlannersTraceThroughSearchAndResult() {
        String verb = "TRACE_UNIT_CONVERSION";
        librarian.answer(verb, request -> new SearchReply(request.requestId(), List.of(new SearchHit(
                "internal.convert-units", "CONVERT_UNITS", "convert units", "a tool", 9.1, 0.91,
                List.of("semantic"), Risk.READ_ONLY, 1)), 0.6, null));
        String plan = id("plan");
        String traceId = newTraceId();
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader searches = kafka.reader(Topics.TOOL_SEARCH_REQUESTS);
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            PlanStep step = new PlanStep("t1-" + plan, plan, verb, "5 miles in km",
                    inputs("quantity", 5, "sourceUnit", "mi", "targetUnit", "km"), null, "planner-test");
            sendTraced(kafka, plan, step, traceId);

            assertThat(result(results, step.stepId()).status()).isEqualTo(StepStatus.SUBSTITUTED);
            Traceparent ofResult = Traceparent.of(envelopeOf(results, step.stepId()));
            Traceparent ofSearch = Traceparent.of(searchRequestOf(searches, step.stepId()));
            assertThat(ofSearch.traceId()).isEqualTo(traceId);
            assertThat(ofResult.traceId()).isEqualTo(traceId);
            assertThat(ofSearch.spanId()).isNotEqualTo(PLANNER_SPAN).isNotEqualTo(ofResult.spanId());
            assertThat(ofResult.spanId()).isNotEqualTo(PLANNER_SPAN);

            // The spans behind those ids: step <- planner; search and execution <- step.
            SpanData stepSpan = awaitSpan(traceId, "step " + verb);
            assertThat(stepSpan.getParentSpanId()).isEqualTo(PLANNER_SPAN);
            assertThat(stepSpan.getSpanId()).isEqualTo(ofResult.spanId());
            assertThat(stepSpan.getAttributes().get(AttributeKey.stringKey("toolsmith.step.id"))).isEqualTo(step.stepId());
            assertThat(stepSpan.getAttributes().get(AttributeKey.stringKey("toolsmith.plan.id"))).isEqualTo(plan);
            assertThat(stepSpan.getAttributes().get(AttributeKey.stringKey("toolsmith.step.verb"))).isEqualTo(verb);
            assertThat(stepSpan.getAttributes().get(AttributeKey.stringKey("toolsmith.step.status")))
                    .isEqualTo("SUBSTITUTED");
            SpanData search = awaitSpan(traceId, "search");
            assertThat(search.getSpanId()).isEqualTo(ofSearch.spanId());
            assertThat(search.getParentSpanId()).isEqualTo(stepSpan.getSpanId());
            SpanData execute = awaitSpan(traceId, "execute internal.convert-units");
            assertThat(execute.getParentSpanId()).isEqualTo(stepSpan.getSpanId());

            // The step came and its search went over Kafka, and no Kafka span was made on the way: SmallRye Kafka's
            // own receive and publish spans would start traces of their own, put the publishing span's traceparent
            // in the record header beside the envelope's, and overwrite the logs' traceId.
            assertThat(spans.all()).extracting(span -> span.getInstrumentationScopeInfo().getName() + ": " + span.getName())
                    .isNotEmpty().noneMatch(scopeAndName -> scopeAndName.startsWith("io.smallrye.reactive.messaging"));
        }
    }

    @Test
    void aKnownVerbStepFromKafkaAnswersInThePlannersTrace() {
        String plan = id("plan");
        String traceId = newTraceId();
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            PlanStep step = step("k1-" + plan, plan, "EVALUATE_EXPRESSION", inputs("expression", "1 + 2"));
            sendTraced(kafka, plan, step, traceId);

            StepResult result = result(results, step.stepId());
            assertThat(result.status()).isEqualTo(StepStatus.SUCCEEDED);
            assertThat(result.outputs().get("result").decimalValue()).isEqualByComparingTo("3");
            Traceparent ofResult = Traceparent.of(envelopeOf(results, step.stepId()));
            assertThat(ofResult.traceId()).isEqualTo(traceId);
            assertThat(ofResult.spanId()).isNotEqualTo(PLANNER_SPAN);
            assertThat(awaitSpan(traceId, "execute internal.evaluate-expression").getParentSpanId())
                    .isEqualTo(ofResult.spanId());
        }
    }

    @Test
    void aStepPostedWithATraceparentHeaderAnswersInThatTrace() {
        String traceId = newTraceId();
        Traceparent ofResult = answerToAStepPostedWith(traceparent(traceId));
        assertThat(ofResult.traceId()).isEqualTo(traceId);
        SpanData stepSpan = awaitSpan(traceId, "step EVALUATE_EXPRESSION");
        assertThat(stepSpan.getParentSpanId()).isEqualTo(PLANNER_SPAN);
        assertThat(stepSpan.getSpanId()).isEqualTo(ofResult.spanId());
        awaitSpan(traceId, "execute internal.evaluate-expression");
        // quarkus-opentelemetry's automatic spans are off: its REST server span would continue this header
        // too and sit in the trace beside the step's, and its SQL spans would hang under nothing of ours.
        assertThat(spans.ofTrace(traceId)).extracting(SpanData::getName)
                .containsOnly("step EVALUATE_EXPRESSION", "execute internal.evaluate-expression");
    }

    @Test
    void aMalformedOrForgedTraceparentOnKafkaStartsANewTraceAndTheStepStillRuns() {
        String forged = newTraceId();
        List<String> malformed = List.of(
                "not-a-traceparent",
                "00-00000000000000000000000000000000-" + PLANNER_SPAN + "-01", // the invalid all-zero trace id
                "00-" + forged + "-0000000000000000-01", // the invalid all-zero parent span id
                traceparent(forged) + "\r\nX-Injected: yes"); // a second header smuggled after a valid one
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            for (int i = 0; i < malformed.size(); i++) {
                PlanStep step = step("m" + i + "-" + plan, plan, "EVALUATE_EXPRESSION", inputs("expression", "1 + 2"));
                EventEnvelope envelope = kafka.codec().envelope(step, "/planner-test", plan)
                        .withTraceparent(malformed.get(i));
                kafka.send(Topics.PLAN_STEPS, plan, envelope);

                assertThat(result(results, step.stepId()).status()).as(malformed.get(i)).isEqualTo(StepStatus.SUCCEEDED);
                // Traceparent.of: the result carries a clean traceparent of a trace of its own.
                Traceparent ofResult = Traceparent.of(envelopeOf(results, step.stepId()));
                assertThat(ofResult.traceId()).as(malformed.get(i)).isNotEqualTo(forged)
                        .isNotEqualTo("00000000000000000000000000000000");
                assertThat(awaitSpan(ofResult.traceId(), "step EVALUATE_EXPRESSION").getParentSpanId())
                        .as(malformed.get(i)).isEqualTo("0000000000000000");
            }
        }
    }

    @Test
    void aStepPostedWithAMalformedTraceparentHeaderRunsInANewTrace() {
        String forged = newTraceId();
        Traceparent ofResult = answerToAStepPostedWith("00-" + forged + "-zz-01");
        assertThat(ofResult.traceId()).isNotEqualTo(forged);
        assertThat(awaitSpan(ofResult.traceId(), "step EVALUATE_EXPRESSION").getParentSpanId())
                .isEqualTo("0000000000000000");
    }

    private static String traceparent(String traceId) {
        return "00-" + traceId + "-" + PLANNER_SPAN + "-01";
    }

    /** Posts an EVALUATE_EXPRESSION step with this {@code traceparent} header; the traceparent of its result. */
    private static Traceparent answerToAStepPostedWith(String traceparent) {
        String plan = id("plan");
        PlanStep step = step("r-" + plan, plan, "EVALUATE_EXPRESSION", inputs("expression", "1 + 2"));
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            given().header("X-API-Key", "planner-key").header("traceparent", traceparent)
                    .contentType(ContentType.JSON).body(Steps.CODEC.toJson(step).toString())
                    .post("/steps").then().statusCode(200);
            return Traceparent.of(envelopeOf(results, step.stepId()));
        }
    }

    /** Sends the step as a traced planner would: its envelope carries the planner's traceparent. */
    private static void sendTraced(KafkaTestClient kafka, String plan, PlanStep step, String traceId) {
        EventEnvelope envelope = kafka.codec().envelope(step, "/planner-test", plan).withTraceparent(traceparent(traceId));
        kafka.send(Topics.PLAN_STEPS, plan, envelope);
    }

    private static EventEnvelope envelopeOf(KafkaTestClient.Reader results, String stepId) {
        List<ConsumerRecord<String, byte[]>> records = results.awaitMatching(
                r -> stepId.equals(Steps.CODEC.openEnvelope(r.value()).data().path("stepId").asText()),
                Duration.ofSeconds(20));
        assertThat(records).as("step-results for %s", stepId).isNotEmpty();
        return Steps.CODEC.openEnvelope(records.get(0).value());
    }

    private static EventEnvelope searchRequestOf(KafkaTestClient.Reader searches, String stepId) {
        List<ConsumerRecord<String, byte[]>> records = searches.awaitMatching(r -> stepId.equals(r.key()),
                Duration.ofSeconds(20));
        assertThat(records).as("search request for %s", stepId).hasSize(1);
        EventEnvelope envelope = Steps.CODEC.openEnvelope(records.get(0).value());
        assertThat(Steps.CODEC.payload(envelope, SearchRequest.class).requestId()).isEqualTo(stepId);
        return envelope;
    }

    private SpanData awaitSpan(String traceId, String name) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> spans.ofTrace(traceId).stream().anyMatch(span -> span.getName().equals(name)));
        return spans.ofTrace(traceId).stream().filter(span -> span.getName().equals(name)).findFirst().orElseThrow();
    }
}
