package dev.toolsmith.engineer;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Find-or-build drafts, with WireMock answering as the LLM (recorded completions, chosen by the gap's
 * verb) and as the librarian's {@code POST /tools/pending/drafts}: a gap gets one validated draft,
 * delivered once with the engineer's service key; a librarian that fails is tried three times at once,
 * and then again on the gap's next event without asking the LLM again, while a refusal (4xx) is not tried
 * again; an unusable answer is recorded with its reason and nothing is delivered.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_engineer"))
@QuarkusTestResource(LlmAndLibrarianStub.class)
class FindOrBuildDraftsTest {

    private static final String VIEWER = "viewer-key";
    private static final String DRAFTS = "/tools/pending/drafts";

    @Test
    @SuppressWarnings("unchecked")
    void aGapNoSourceCanFillGetsOneDraftDeliveredToTheReviewQueue() {
        String gap = "charter yacht " + UUID.randomUUID();
        String marker = "weekend " + UUID.randomUUID(); // in the prompt: counts this gap's LLM calls
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap)))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"outcome\": \"CREATED\"}")));

        sendGap(gap, "CHARTER_YACHT", "a yacht for the " + marker, List.of("harbour", "days"));
        Map<String, Object> request = awaitRequest(gap, r -> r.get("draftDeliveredAt") != null);
        Map<?, ?> draft = (Map<?, ?>) request.get("draftManifest");
        assertThat(draft.get("id")).isEqualTo("draft:charter_yacht");
        assertThat(draft.get("verb")).isEqualTo("CHARTER_YACHT");
        assertThat(draft.get("binding")).isNull();
        assertThat((List<Object>) draft.get("tags")).contains("draft", "gap:" + gap);
        assertThat(request.get("draftError")).isNull();
        assertThat(request.get("draftDeliveryError")).isNull();

        List<LoggedRequest> delivered = deliveries(gap);
        assertThat(delivered).hasSize(1);
        LoggedRequest sent = delivered.get(0);
        assertThat(sent.getHeader("X-API-Key")).isEqualTo(LlmAndLibrarianStub.SERVICE_KEY);
        assertThat(sent.getBodyAsString()).contains("\"actionVerb\":\"CHARTER_YACHT\"")
                .contains("\"inputNames\":[\"harbour\",\"days\"]").contains("\"manifest\":{");

        // the gap again: counted, but neither drafted nor delivered twice
        sendGap(gap, "CHARTER_YACHT", "a yacht for the " + marker, List.of("harbour", "days"));
        awaitRequest(gap, r -> ((Number) r.get("timesSeen")).intValue() == 2);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(deliveries(gap)).hasSize(1));
        assertThat(llmCalls(marker)).isEqualTo(1);
    }

    @Test
    void aLibrarianStillFailingAfterThreeTriesIsTriedAgainOnTheGapsNextEventWithTheSameDraft() {
        String gap = "charter yacht " + UUID.randomUUID();
        String marker = "regatta " + UUID.randomUUID();
        String scenario = "librarian-" + gap;
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap)))
                .inScenario(scenario).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(503).withBody("{\"status\": 503, \"error\": \"starting\"}")));
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap)))
                .inScenario(scenario).whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(200).withBody("{\"outcome\": \"UNCHANGED\"}")));

        sendGap(gap, "CHARTER_YACHT", "a yacht for the " + marker, List.of("harbour"));
        Map<String, Object> failed = awaitRequest(gap, r -> r.get("draftDeliveryError") != null);
        assertThat((String) failed.get("draftDeliveryError")).contains("answered 503").contains("starting")
                .doesNotContain(LlmAndLibrarianStub.SERVICE_KEY);
        assertThat(failed.get("draftManifest")).isNotNull();
        assertThat(failed.get("draftDeliveredAt")).isNull();
        assertThat(deliveries(gap)).hasSize(3); // the first try and two retries

        librarian().setScenarioState(scenario, "up");
        sendGap(gap, "CHARTER_YACHT", "a yacht for the " + marker, List.of("harbour"));
        Map<String, Object> delivered = awaitRequest(gap, r -> r.get("draftDeliveredAt") != null);
        assertThat(delivered.get("draftDeliveryError")).isNull();
        assertThat(deliveries(gap)).hasSize(4);
        assertThat(llmCalls(marker)).isEqualTo(1); // the stored draft was sent again
    }

    @Test
    void aLibrarianFailingOnceIsTriedAgainAtOnceAndARefusalIsNot() {
        String flaky = "charter yacht " + UUID.randomUUID();
        String scenario = "librarian-" + flaky;
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(flaky)))
                .inScenario(scenario).whenScenarioStateIs(Scenario.STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(500).withBody("{\"status\": 500}")));
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(flaky)))
                .inScenario(scenario).whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withBody("{\"outcome\": \"CREATED\"}")));
        String refused = "charter yacht " + UUID.randomUUID();
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(refused)))
                .willReturn(aResponse().withStatus(400).withBody("{\"status\": 400, \"error\": \"manifest.verb is missing\"}")));

        sendGap(flaky, "CHARTER_YACHT", "a yacht for the weekend", List.of("harbour"));
        sendGap(refused, "CHARTER_YACHT", "a yacht for the weekend", List.of("harbour"));

        Map<String, Object> delivered = awaitRequest(flaky, r -> r.get("draftDeliveredAt") != null);
        assertThat(delivered.get("draftDeliveryError")).isNull();
        assertThat(deliveries(flaky)).hasSize(2);
        Map<String, Object> notDelivered = awaitRequest(refused, r -> r.get("draftDeliveryError") != null);
        assertThat((String) notDelivered.get("draftDeliveryError")).contains("answered 400")
                .contains("manifest.verb is missing");
        assertThat(deliveries(refused)).hasSize(1);
    }

    @Test
    void aLibrarianThatDoesNotAnswerInTimeIsGivenUpOnAfterThreeTriesAndTriedAgainOnTheNextEvent() {
        // A try's read timeout is 2 s here (test application.properties; 10 s in production); the stub
        // holds each answer for 5 s, so every try times out, and the engineer must neither hang nor send more.
        String gap = "charter yacht " + UUID.randomUUID();
        String scenario = "librarian-" + gap;
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap)))
                .inScenario(scenario).whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(201).withFixedDelay(5_000).withBody("{\"outcome\": \"CREATED\"}")));
        librarian().stubFor(post(urlPathEqualTo(DRAFTS)).withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap)))
                .inScenario(scenario).whenScenarioStateIs("fast")
                .willReturn(aResponse().withStatus(201).withBody("{\"outcome\": \"CREATED\"}")));

        sendGap(gap, "CHARTER_YACHT", "a yacht for the weekend", List.of("harbour"));
        Map<String, Object> failed = awaitRequest(gap, r -> r.get("draftDeliveryError") != null);
        assertThat((String) failed.get("draftDeliveryError")).contains("did not answer in time (3 tries)")
                .doesNotContain(LlmAndLibrarianStub.SERVICE_KEY);
        assertThat(failed.get("draftDeliveredAt")).isNull();
        assertThat(deliveries(gap)).hasSize(3);

        librarian().setScenarioState(scenario, "fast");
        sendGap(gap, "CHARTER_YACHT", "a yacht for the weekend", List.of("harbour"));
        Map<String, Object> delivered = awaitRequest(gap, r -> r.get("draftDeliveredAt") != null);
        assertThat(delivered.get("draftDeliveryError")).isNull();
        assertThat(deliveries(gap)).hasSize(4);
    }

    @Test
    void anUnusableAnswerIsRecordedWithItsReasonAndNothingIsDelivered() {
        String malformed = "forecast tides " + UUID.randomUUID();
        String foreign = "track parcel " + UUID.randomUUID();
        sendGap(malformed, "FORECAST_TIDES", "tides for sailing", List.of("harbour"));
        sendGap(foreign, "TRACK_PARCEL", "where is my parcel", List.of("trackingNumber"));

        Map<String, Object> notJson = awaitRequest(malformed, r -> r.get("draftError") != null);
        assertThat((String) notJson.get("draftError")).contains("the answer is not JSON");
        assertThat(notJson.get("draftManifest")).isNull();
        Map<String, Object> namesAHost = awaitRequest(foreign, r -> r.get("draftError") != null);
        assertThat((String) namesAHost.get("draftError")).contains("parcels.example.org").contains("names no servers");
        assertThat(namesAHost.get("draftManifest")).isNull();

        assertThat(deliveries(malformed)).isEmpty();
        assertThat(deliveries(foreign)).isEmpty();
    }

    private static WireMockServer librarian() {
        return LlmAndLibrarianStub.server();
    }

    private static List<LoggedRequest> deliveries(String gap) {
        return librarian().findAll(postRequestedFor(urlPathEqualTo(DRAFTS))
                .withRequestBody(matchingJsonPath("$.normalizedVerb", equalTo(gap))));
    }

    private static int llmCalls(String marker) {
        return librarian().findAll(postRequestedFor(urlPathEqualTo("/v1/chat/completions"))
                .withRequestBody(containing(marker))).size();
    }

    private static void sendGap(String gap, String actionVerb, String description, List<String> inputs) {
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.CAPABILITY_GAPS, gap, new CapabilityGap(gap, actionVerb, description, inputs, "step-1",
                    "plan-1", 1, List.of()));
        }
    }

    /** The build request of {@code gap} once it satisfies {@code condition}. */
    private static Map<String, Object> awaitRequest(String gap, java.util.function.Predicate<Map<String, Object>> condition) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> given().header("X-API-Key", VIEWER)
                .queryParam("size", 100).get("/build-requests").then().statusCode(200).extract().jsonPath()
                .<Map<String, Object>>getList("items").stream().filter(item -> gap.equals(item.get("normalizedVerb")))
                .findFirst().orElse(null), item -> item != null && condition.test(item));
    }
}
