package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.tool.ToolExecution;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.e2e.demo.AirlockAdmin;
import dev.toolsmith.e2e.demo.FxRatesApi;
import dev.toolsmith.e2e.demo.RecordedLlm;
import dev.toolsmith.planner.AgentSettings;
import dev.toolsmith.planner.PlannerAgent;
import dev.toolsmith.planner.kafka.KafkaPlannerAgent;
import dev.toolsmith.planner.kafka.KafkaSettings;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reference planner agent reaches "How many US dollars are 100 euros?" against the launched platform, with its
 * LLM turns played by a recorded OpenAI-compatible endpoint (WireMock, {@link RecordedLlm}) so no network is needed:
 * over MCP (find_tools → describe_tool → call_tool of an FX API approved through the airlock, then the answer) and
 * over Kafka (a plan step with a verb and inputs no tool takes → UNRESOLVED with candidates → the model's choice →
 * a follow-up step naming the tool → its result, then the answer). Each recorded turn answers only when the
 * conversation holds what the platform really answered (the found tool id, its input schema, the result), and the
 * converted amount comes from the FX stand-in, through the tool, back into the conversation; the calls show in the
 * tool's usage and in the API's own count.
 */
@ExtendWith(Platform.class)
class PlannerAgentIT {

    private static final String GOAL = "How many US dollars are 100 euros?";
    /** The verb of the Kafka plan's step (recorded-llm/kafka-convert.json): nothing registers it. */
    private static final String NOVEL_VERB = "CHANGE_MONEY";
    /** 100 EUR at the stand-in's fixed rate of 1.08 USD per euro. */
    private static final BigDecimal CONVERTED = new BigDecimal("108");
    private static final Pattern ANSWER =
            Pattern.compile("100 euros are ([0-9.]+) US dollars \\(converted by (\\S+) through Toolsmith\\)\\.");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static FxRatesApi api;
    private static String toolId;

    @BeforeAll
    static void approveTheFxApi() throws Exception {
        api = new FxRatesApi("fx-agent-it", "agentIt_");
        AirlockAdmin airlock = new AirlockAdmin(Platform.librarian(), Platform.get().adminKey());
        JsonNode source = airlock.registerAndScan("agent-it", api.documentUrl());
        JsonNode candidate = airlock.candidate(source.path("id").asText(), "AGENT_IT_CONVERT_AMOUNT");
        ObjectNode policy = airlock.newObject();
        policy.putObject("quota").put("perDay", 10);
        airlock.approveAndAwaitActive(candidate, policy, Duration.ofMinutes(3));
        toolId = candidate.path("toolId").asText();
        // the librarian's index follows the catalog topic: the agent can find the tool once it has caught up
        try (McpClient mcp = new McpClient(Platform.capabilities() + "/mcp", Platform.get().plannerKey())) {
            mcp.initialize();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> McpClient.text(
                    mcp.callTool("find_tools", Map.of("query", "convert an amount of money from one currency to another",
                            "limit", 5, "token_budget", 800))).contains("\"" + toolId + "\""));
        }
        forgetAlias();
    }

    @AfterAll
    static void retireTheTool() {
        forgetAlias();
        if (toolId != null) {
            given().header("X-API-Key", Platform.get().adminKey()).queryParam("reason", "PlannerAgentIT is done")
                    .delete(Platform.librarian() + "/tools/" + toolId).then().statusCode(204);
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void overMcpTheAgentFindsDescribesAndCallsTheToolAndAnswersWithItsResult() throws Exception {
        int conversions = api.conversions();
        long calls = usageCalls();
        try (RecordedLlm llm = RecordedLlm.start("mcp-convert", Map.of("TOOL_ID", toolId));
                PlannerAgent agent = new PlannerAgent(new AgentSettings(llm.baseUrl(), "none", "recorded",
                        Platform.capabilities() + "/mcp", Platform.get().plannerKey(), Duration.ofSeconds(60)))) {
            PlannerAgent.Outcome outcome = agent.achieve(GOAL);

            assertThat(llm.unanswered()).as("requests the recording did not answer").isEmpty();
            assertThat(llm.answered()).isEqualTo(llm.turns());
            assertThat(outcome.calls()).extracting(call -> call.request().name())
                    .containsExactly("find_tools", "describe_tool", "call_tool");
            ToolExecution call = outcome.calls().get(2);
            JsonNode called = JSON.readTree(call.result());
            assertThat(called.path("status").asText()).as(call.result()).isEqualTo("SUCCEEDED");
            assertThat(called.path("outputs").path("result").decimalValue()).as("the API's converted amount, through the tool")
                    .isEqualByComparingTo(CONVERTED);
            assertAnswerQuotes(outcome.answer());
        }
        assertThat(api.conversions()).as("the call reached the API once").isEqualTo(conversions + 1);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(usageCalls()).isEqualTo(calls + 1));
    }

    @Test
    void overKafkaTheAgentIsOfferedCandidatesChoosesTheToolAndAnswersWithItsResult() {
        int conversions = api.conversions();
        long calls = usageCalls();
        KafkaSettings kafka = new KafkaSettings(Platform.kafka(), Platform.get().kafkaLogin("planner"), "planner",
                Platform.get().plannerKey(), Duration.ofSeconds(60));
        try (RecordedLlm llm = RecordedLlm.start("kafka-convert", Map.of("TOOL_ID", toolId));
                KafkaPlannerAgent agent = new KafkaPlannerAgent(OpenAiChatModel.builder().baseUrl(llm.baseUrl())
                        .apiKey("none").modelName("recorded").maxRetries(0).build(), kafka,
                        line -> System.out.println("[agent] " + line))) {
            KafkaPlannerAgent.Outcome outcome = agent.achieve(GOAL);

            assertThat(llm.unanswered()).as("requests the recording did not answer").isEmpty();
            assertThat(outcome.turns()).extracting(turn -> turn.result().status())
                    .containsExactly(StepStatus.UNRESOLVED, StepStatus.SUBSTITUTED);
            KafkaPlannerAgent.Turn first = outcome.turns().get(0);
            assertThat(first.step().actionVerb()).isEqualTo(NOVEL_VERB);
            assertThat(first.result().choices()).extracting(ToolChoice::id).contains(toolId);
            KafkaPlannerAgent.Turn followUp = outcome.turns().get(1);
            assertThat(followUp.step().toolId()).isEqualTo(toolId);
            assertThat(followUp.step().planId()).isEqualTo(first.step().planId());
            assertThat(followUp.result().servedBy().toolId()).isEqualTo(toolId);
            assertThat(followUp.result().outputs().get("result").decimalValue()).isEqualByComparingTo(CONVERTED);
            assertThat(outcome.replans()).isEqualTo(1);
            assertAnswerQuotes(outcome.answer());
        }
        assertThat(api.conversions()).as("only the follow-up step reached the API").isEqualTo(conversions + 1);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(usageCalls()).isEqualTo(calls + 1));
        List<Map<String, Object>> aliases = JsonPath.from(given().header("X-API-Key", Platform.get().adminKey())
                .get(Platform.capabilities() + "/aliases").then().statusCode(200).extract().asString()).getList("$");
        assertThat(aliases).as("the confirmed choice is learned as an alias")
                .anyMatch(alias -> VerbNormalizer.normalize(NOVEL_VERB).equals(alias.get("verb"))
                        && toolId.equals(alias.get("toolId")));
    }

    /** The recorded final answer, with the amount the tool returned, as the conversation carried it to the model. */
    private static void assertAnswerQuotes(String answer) {
        Matcher quoted = ANSWER.matcher(answer);
        assertThat(quoted.matches()).as(answer).isTrue();
        assertThat(new BigDecimal(quoted.group(1))).isEqualByComparingTo(CONVERTED);
        assertThat(quoted.group(2)).isEqualTo(toolId);
    }

    /** Today's calls of the tool as its usage counts them (admin view). */
    private static long usageCalls() {
        return given().header("X-API-Key", Platform.get().adminKey()).queryParam("period", "day")
                .get(Platform.capabilities() + "/plugins/" + toolId + "/usage").then().statusCode(200)
                .extract().jsonPath().getLong("calls");
    }

    private static void forgetAlias() {
        given().header("X-API-Key", Platform.get().adminKey()).delete(Platform.capabilities() + "/aliases/" + NOVEL_VERB)
                .then().statusCode(org.hamcrest.Matchers.oneOf(204, 404));
    }
}
