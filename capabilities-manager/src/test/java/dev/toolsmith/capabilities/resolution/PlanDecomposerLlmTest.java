package dev.toolsmith.capabilities.resolution;

import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The decomposer against WireMock standing in for the OpenAI endpoint (recorded answers under
 * src/test/resources/wiremock, chosen by the step's verb): what the AI service sends, how it reads
 * fenced, wordy and broken answers, and the one re-ask. Each step carries a fresh description so its
 * requests can be told apart on the server the module's tests share.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PlanDecomposerLlmTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    PlanDecomposer decomposer;

    @Inject
    PluginRegistry registry;

    @BeforeEach
    void internalPluginsAreRegistered() {
        await().atMost(Duration.ofSeconds(20)).until(() -> registry.byVerb("EVALUATE_EXPRESSION").isPresent()
                && registry.byVerb("RENDER_TEXT").isPresent());
    }

    private static PlanStep step(String verb, String marker) {
        return new PlanStep("s7", "p-" + marker, verb, marker, Map.of("from", StepInput.reference("s1", "km")), null,
                "planner-test");
    }

    private PlanDecomposer.Decomposition decompose(PlanStep step) {
        return decomposer.decompose(step, JsonNodeFactory.instance.objectNode().put("from", 42))
                .await().atMost(Duration.ofSeconds(30));
    }

    /** The requests sent for the step with this marker, oldest first, as parsed JSON. */
    private static List<JsonNode> requestsFor(String marker) {
        return RecordedLlmResource.server()
                .findAll(postRequestedFor(urlPathEqualTo("/v1/chat/completions")).withRequestBody(containing(marker)))
                .stream().sorted((a, b) -> a.getLoggedDate().compareTo(b.getLoggedDate()))
                .map(LoggedRequest::getBodyAsString).map(PlanDecomposerLlmTest::parse).toList();
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String message(JsonNode request, int index, String role) {
        JsonNode message = request.path("messages").path(index);
        assertThat(message.path("role").asText()).isEqualTo(role);
        return message.path("content").asText();
    }

    @Test
    void theRequestCarriesTheVerbsTheStepAndTheFormatInstructionLiterallyAtTemperatureZero() {
        String marker = "split " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("SPLIT_THE_BILL", marker));
        assertThat(result.failure()).isNull();

        List<JsonNode> requests = requestsFor(marker);
        assertThat(requests).hasSize(1);
        JsonNode request = requests.get(0);
        assertThat(request.path("messages")).hasSize(2);
        String system = message(request, 0, "system");
        // the JSON examples reach the model as written: no template engine ate their braces
        assertThat(system).contains("""
                {"steps": [{"stepId": "s1", "actionVerb": "<a listed verb>", "description": "<why>",""")
                .contains("""
                        "inputs": {"<input name>": {"value": <JSON value>} or {"sourceStep": "<earlier stepId>", "outputName": "<its output>"}}}]}""")
                .contains("answer {\"steps\": []}")
                .contains("- EVALUATE_EXPRESSION: ").contains("expression (string, required)");
        String user = message(request, 1, "user");
        assertThat(user).startsWith("Step to decompose: SPLIT_THE_BILL — " + marker + "\nIts inputs:\n"
                + "- from: {\"sourceStep\": \"s1\", \"outputName\": \"km\"} (currently 42)\n");
        // the library's format instruction for ProposedPlan, with the field descriptions verbatim
        assertThat(user).contains("You must answer strictly in the following JSON format")
                .contains("\"steps\": (")
                .contains("input name -> {\"value\": <JSON value>} or {\"sourceStep\": \"<earlier stepId>\"");
        assertThat(request.path("temperature").asDouble(-1)).isEqualTo(0.0);
        assertThat(request.path("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(request.has("response_format")).isFalse();
    }

    @Test
    void anAnswerWithProseAroundTheJsonIsRead() {
        PlanDecomposer.Decomposition result = decompose(step("SPLIT_THE_BILL", "prose " + UUID.randomUUID()));
        assertThat(result.failure()).isNull();
        assertThat(result.plan()).singleElement().satisfies(s -> {
            assertThat(s.stepId()).isEqualTo("s7.share");
            assertThat(s.actionVerb()).isEqualTo("EVALUATE_EXPRESSION");
            assertThat(s.description()).isEqualTo("each diner's share");
            assertThat(s.inputs().get("variables").value().get("diners").asInt()).isEqualTo(4);
        });
    }

    @Test
    void aFencedAnswerIsRead() {
        PlanDecomposer.Decomposition result = decompose(step("PLAN_PARTY_BUDGET", "fence " + UUID.randomUUID()));
        assertThat(result.failure()).isNull();
        assertThat(result.plan()).extracting(PlanStep::stepId).containsExactly("s7.total", "s7.invite");
        assertThat(result.plan().get(1).inputs().get("values").sourceStep()).isEqualTo("s7.total");
    }

    @Test
    void aFencedAnswerBetweenSentencesIsReadWithItsBareValueInputs() {
        PlanDecomposer.Decomposition result = decompose(step("TALLY_THE_SCORES", "tally " + UUID.randomUUID()));
        assertThat(result.failure()).isNull();
        assertThat(result.plan()).singleElement().satisfies(s -> {
            assertThat(s.inputs().get("expression").value().asText()).isEqualTo("a + b");
            assertThat(s.inputs().get("variables").value().get("b").asInt()).isEqualTo(4);
            assertThat(s.inputs().get("variables").isReference()).isFalse();
        });
    }

    @Test
    void anInvalidPlanIsSentBackOnceWithTheStepTheParsedAnswerAndTheProblems() {
        String marker = "commute " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("ESTIMATE_COMMUTE_COST", marker));
        assertThat(result.failure()).isNull();
        assertThat(result.plan()).extracting(PlanStep::actionVerb).containsExactly("EVALUATE_EXPRESSION");

        List<JsonNode> requests = requestsFor(marker);
        assertThat(requests).hasSize(2);
        JsonNode retry = requests.get(1);
        // stateless: the second request repeats the instructions and the step, nothing more
        assertThat(retry.path("messages")).hasSize(2);
        assertThat(message(retry, 0, "system")).isEqualTo(message(requests.get(0), 0, "system"));
        String user = message(retry, 1, "user");
        assertThat(user).startsWith("Step to decompose: ESTIMATE_COMMUTE_COST — " + marker)
                .contains("\nYour previous answer:\n{\"steps\":[{\"stepId\":\"price\",\"actionVerb\":\"FETCH_FUEL_PRICE\"")
                .contains("\nYour plan was rejected:\n- step 'price' uses verb 'FETCH_FUEL_PRICE', which is not registered: "
                        + "use only the listed verbs\nAnswer again with the corrected JSON object only.")
                .contains("You must answer strictly in the following JSON format");
    }

    @Test
    void anAnswerThatIsNotJsonIsSentBackOnceThenRefusedNamingWhy() {
        String marker = "mood " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("SUMMARISE_MOOD", marker));
        assertThat(result.succeeded()).isFalse();
        String rejectedTwice = "the LLM's decomposition was rejected twice: ";
        // the parser finds the bracketed list in the prose: an array, not the object asked for
        assertThat(result.failure()).startsWith(rejectedTwice + "the answer is not a JSON object")
                .doesNotContain("base64").doesNotContain("I hope this helps").doesNotContain("dev.toolsmith");
        String problem = result.failure().substring(rejectedTwice.length());

        List<JsonNode> requests = requestsFor(marker);
        assertThat(requests).hasSize(2);
        assertThat(message(requests.get(1), 1, "user")).contains("\nYour previous answer:\n(not readable as the JSON object "
                + "asked for)\nYour plan was rejected:\n- " + problem + "\nAnswer again with the corrected JSON object only.");
    }

    @Test
    void stepsThatAreNotAnArrayAreRefusedNamingWhere() {
        String marker = "votes " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("COUNT_THE_VOTES", marker));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.failure()).contains("rejected twice", "'steps' is not an array");
        assertThat(requestsFor(marker)).hasSize(2);
    }

    @Test
    void aVerbThatIsNotTextIsRefusedNamingWhere() {
        String marker = "rank " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("RANK_THE_TEAMS", marker));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.failure()).contains("rejected twice", "'steps[0].actionVerb' is not a string");
        assertThat(requestsFor(marker)).hasSize(2);
    }

    @Test
    void anEndpointRefusalIsNotRetriedAsAPlanAndItsQuotedKeyIsBlanked() {
        String marker = "weather " + UUID.randomUUID();
        PlanDecomposer.Decomposition result = decompose(step("FORECAST_THE_WEATHER", marker));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.failure()).startsWith("the LLM could not be reached: ")
                .doesNotContain("sk-proj-abcdefgh12345678").doesNotContain("rejected");
        assertThat(requestsFor(marker).stream().map(r -> message(r, 1, "user")))
                .noneMatch(user -> user.contains("Your plan was rejected"));
    }
}
