package dev.toolsmith.planner.kafka;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.planner.AgentSettings;
import dev.toolsmith.planner.PlannerAgent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests the AI service really sends, through the agent's OpenAI-compatible chat model to a WireMock stand-in:
 * the system message with its JSON example as written, the goal with the library's JSON format instruction,
 * temperature 0, the conversation carried from turn to turn, the key only in the Authorization header.
 */
class PlanningChatHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-planner-llm-key";
    private static final String GOAL = "How many US dollars are 100 euros?";

    private WireMockServer llm;

    @BeforeEach
    void startLlm() {
        llm = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        llm.start();
        // the latest question decides: a later turn's request holds the earlier turns too
        answer(3, null, "Here is the plan:\n```json\n{\"steps\": [{\"id\": \"convert\", \"actionVerb\": \"CHANGE_MONEY\","
                + " \"inputs\": {\"request\": \"100 EUR in USD\"}}]}\n```");
        answer(2, "came back UNRESOLVED", "{\"toolId\": \"fx:convert\", \"inputs\": {\"amount\": 100}}");
        answer(1, "The steps ran", "100 euros are 108 US dollars.");
    }

    @AfterEach
    void stopLlm() {
        llm.stop();
    }

    @Test
    void theAgentsRequestsCarryThePromptsTheFormatAndTheConversationAtTemperatureZero() throws Exception {
        AgentSettings settings = new AgentSettings("http://127.0.0.1:" + llm.port() + "/v1", KEY, "planner-model",
                "http://127.0.0.1:1/mcp", "planner-key", Duration.ofSeconds(10));
        List<String> log = new ArrayList<>();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        KafkaPlannerAgent.Outcome outcome;
        try (PrintStream captured = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            System.setOut(captured);
            System.setErr(captured);
            try (KafkaPlannerAgent agent = new KafkaPlannerAgent(PlannerAgent.chatModel(settings), new Toolsmith(),
                    "planner", log::add)) {
                outcome = agent.achieve(GOAL);
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }

        assertThat(outcome.answer()).isEqualTo("100 euros are 108 US dollars.");
        assertThat(outcome.turns()).extracting(turn -> turn.step().toolId()).containsExactly(null, "fx:convert");
        List<ServeEvent> served = llm.getAllServeEvents().stream()
                .sorted(Comparator.comparing(event -> event.getRequest().getLoggedDate())).toList();
        assertThat(served).hasSize(3).allMatch(ServeEvent::getWasMatched);
        for (ServeEvent event : served) {
            assertThat(event.getRequest().getHeader("Authorization")).isEqualTo("Bearer " + KEY);
            JsonNode body = JSON.readTree(event.getRequest().getBodyAsString());
            assertThat(body.path("model").asText()).isEqualTo("planner-model");
            assertThat(body.path("temperature").isNumber()).as(body.toString()).isTrue();
            assertThat(body.path("temperature").doubleValue()).isZero();
            // the format is asked for in the question, not as a JSON-schema response format some servers lack
            assertThat(body.has("response_format")).as(body.toString()).isFalse();
            JsonNode system = body.path("messages").get(0);
            assertThat(system.path("role").asText()).isEqualTo("system");
            // the JSON example in the system message arrives as written, not taken for a template
            assertThat(system.path("content").asText()).isEqualTo(PlanningChat.PLANNER)
                    .contains("{\"fromStep\": \"<id of an earlier step>\", \"output\": \"<its output name>\"}");
        }

        JsonNode plan = messages(served.get(0));
        assertThat(plan).hasSize(2);
        assertThat(plan.get(1).path("role").asText()).isEqualTo("user");
        assertThat(plan.get(1).path("content").asText()).startsWith(GOAL)
                .contains("You must answer strictly in the following JSON format")
                .contains("\"steps\"").contains("\"actionVerb\"").contains("\"inputs\"")
                .contains("{\"fromStep\": \"<id of an earlier step>\", \"output\": \"<its output name>\"}");

        JsonNode choice = messages(served.get(1));
        assertThat(choice).hasSize(4);
        assertThat(choice.get(2).path("role").asText()).isEqualTo("assistant");
        assertThat(choice.get(2).path("content").asText()).contains("CHANGE_MONEY");
        assertThat(choice.get(3).path("content").asText()).contains("UNRESOLVED").contains("fx:convert")
                .contains("\"toolId\"").contains("\"giveUp\"").contains("You must answer strictly in the following JSON format");

        JsonNode answer = messages(served.get(2));
        assertThat(answer).hasSize(6);
        assertThat(answer.get(5).path("content").asText()).startsWith("The steps ran")
                .doesNotContain("You must answer strictly");

        assertThat(log).isNotEmpty().noneMatch(line -> line.contains(KEY));
        assertThat(console.toString(StandardCharsets.UTF_8)).doesNotContain(KEY);
    }

    private void answer(int priority, String when, String content) {
        var request = post(urlPathEqualTo("/v1/chat/completions")).atPriority(priority);
        if (when != null) {
            request.withRequestBody(containing(when));
        }
        String body = JSON.createObjectNode().put("id", "chatcmpl-" + priority).put("object", "chat.completion")
                .put("created", 1764201700).put("model", "planner-model")
                .set("choices", JSON.createArrayNode().add(JSON.createObjectNode().put("index", 0)
                        .put("finish_reason", "stop").set("message", JSON.createObjectNode().put("role", "assistant")
                                .put("content", content))))
                .toString();
        llm.stubFor(request.willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                .withBody(body)));
    }

    private static JsonNode messages(ServeEvent event) throws Exception {
        return JSON.readTree(event.getRequest().getBodyAsString()).path("messages");
    }

    /** The capabilities manager in brief: the planned step is UNRESOLVED offering fx:convert, which then serves it. */
    private static final class Toolsmith implements KafkaPlannerAgent.StepSender {
        @Override
        public StepResult sendAndAwait(PlanStep step) {
            if (step.toolId() == null) {
                return new StepResult(step.stepId(), step.planId(), StepStatus.UNRESOLVED, null, null, null, null, null,
                        "no tool does " + step.actionVerb(), Instant.now(), List.of(new ToolChoice("fx:convert",
                                "CONVERT_AMOUNT", "converts an amount", null, List.of("amount"), 0.7)));
            }
            return new StepResult(step.stepId(), step.planId(), StepStatus.SUBSTITUTED,
                    Map.of("result", DoubleNode.valueOf(108)), null, null, null, null, null, Instant.now());
        }

        @Override
        public void close() {
        }
    }
}
