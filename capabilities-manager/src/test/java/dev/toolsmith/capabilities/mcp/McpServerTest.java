package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.ADMIN;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER_NAME;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.VIEWER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.id;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolsmith.capabilities.support.ScriptedLibrarian;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginStatus;
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
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The MCP server over real HTTP with a raw JSON-RPC client: who may connect, the meta-tools' answers (only
 * what the caller may call, within the token budget), and a call through the plan-step path that a policy
 * refuses exactly as it refuses the same step from Kafka.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class McpServerTest extends McpServerTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    private static final List<String> META_TOOLS = McpFixtures.META_TOOLS;

    final ScriptedLibrarian librarian = ScriptedLibrarian.get();

    private McpClient client(String key) {
        return new McpClient(port, key);
    }

    /** A wrapped rate tool of its own, registered with {@code policy}; its id. */
    private String rateToolWith(String name, UsagePolicy policy) {
        return McpFixtures.rateTool(registry, api, name, policy);
    }

    private String verbOf(String toolId) {
        return registry.byToolId(toolId).orElseThrow().verb();
    }

    private static SearchHit hit(String toolId, String verb, double confidence) {
        return new SearchHit(toolId, verb, verb.toLowerCase(), "Looks up a rate. More words that the brief leaves out.",
                confidence * 10, confidence, List.of("semantic"), Risk.READ_ONLY, 1);
    }

    @Test
    void withoutAKeyOrWithAnUnknownOneTheEndpointAnswers401AndAViewerKeyGets403() throws Exception {
        assertThat(client(null).post(initialize()).statusCode()).isEqualTo(401);
        assertThat(client("forged-planner-key").post(initialize()).statusCode()).isEqualTo(401);
        assertThat(client(VIEWER).post(initialize()).statusCode()).isEqualTo(403);

        // a session id another caller opened does not stand in for a key
        McpClient planner = client(PLANNER);
        planner.initialize();
        HttpResponse<String> sessionOnly = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                .newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("Mcp-Session-Id", planner.session())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(sessionOnly.statusCode()).isEqualTo(401);
    }

    private static JsonNode initialize() {
        return JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize")
                .set("params", JSON.createObjectNode().put("protocolVersion", McpClient.PROTOCOL)
                        .<com.fasterxml.jackson.databind.node.ObjectNode>set("capabilities", JSON.createObjectNode())
                        .set("clientInfo", JSON.createObjectNode().put("name", "t").put("version", "1")));
    }

    @Test
    void aRawJsonRpcExchangeInitialisesListsTheMetaToolsAndRunsACallAsAStepOfTheCaller() throws Exception {
        try (McpClient mcp = client(PLANNER)) {
            JsonNode init = mcp.initialize();
            assertThat(init.path("protocolVersion").asText()).isEqualTo(McpClient.PROTOCOL);
            assertThat(init.path("serverInfo").path("name").asText()).isEqualTo("toolsmith");
            assertThat(init.path("capabilities").path("tools").path("listChanged").asBoolean()).isTrue();

            List<String> names = new ArrayList<>();
            mcp.call("tools/list", null).path("tools").forEach(t -> names.add(t.path("name").asText()));
            assertThat(names).containsExactlyInAnyOrderElementsOf(META_TOOLS);

            JsonNode called = mcp.callTool("call_tool", Map.of("id", "internal.evaluate-expression",
                    "arguments", Map.of("expression", "6 * 7")));
            assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
            JsonNode answer = McpClient.structured(called);
            assertThat(answer.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(answer.path("outputs").path("result").decimalValue()).isEqualByComparingTo("42");
            assertThat(answer.path("servedBy").path("toolId").asText()).isEqualTo("internal.evaluate-expression");

            // it was a step of the caller's, in the session's plan, like one sent on Kafka or POST /steps
            String plan = answer.path("planId").asText();
            assertThat(plan).isEqualTo("mcp-" + mcp.session());
            given().header("X-API-Key", PLANNER).get("/steps/" + answer.path("stepId").asText()).then().statusCode(200);
            given().header("X-API-Key", "service-key").get("/steps/" + answer.path("stepId").asText()).then()
                    .statusCode(404); // another caller's step

            JsonNode invalid = McpClient.structured(mcp.callTool("call_tool", Map.of("id",
                    "internal.evaluate-expression", "arguments", Map.of("expression", 7))));
            assertThat(invalid.path("status").asText()).isEqualTo("FAILED");
            assertThat(invalid.path("error").asText()).contains("expression");
        }
    }

    @Test
    void findToolsListsOnlyWhatTheCallerMayCallNeverADisabledToolAndStaysWithinItsBudget() throws Exception {
        String open = rateToolWith("open", UsagePolicy.unrestricted());
        String foreign = rateToolWith("foreign", new UsagePolicy(null, null, null, List.of("someone-else"), null));
        String disabled = rateToolWith("disabled", UsagePolicy.unrestricted());
        given().header("X-API-Key", ADMIN).body("{\"reason\":\"test\"}").post("/plugins/" + disabled + "/disable")
                .then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.byToolId(disabled).orElseThrow().status()
                == PluginStatus.DISABLED);
        String query = "rates for a test " + id("q");
        // the catalog's copy may lag behind the registry: the librarian's answer names all of them
        librarian.answer(query, request -> new SearchReply(request.requestId(), List.of(
                hit(disabled, verbOf(disabled), 0.9), hit(foreign, verbOf(foreign), 0.8), hit(open, verbOf(open), 0.7),
                hit("internal.convert-units", "CONVERT_UNITS", 0.4), hit("nowhere.tool", "NOWHERE", 0.3)), 0.8, null));

        try (McpClient mcp = client(PLANNER)) {
            mcp.initialize();
            JsonNode result = mcp.callTool("find_tools", Map.of("query", query, "token_budget", 5_000));
            JsonNode found = McpClient.structured(result);
            List<String> ids = new ArrayList<>();
            found.path("tools").forEach(t -> ids.add(t.path("id").asText()));
            assertThat(ids).containsExactly(open, "internal.convert-units");
            JsonNode first = found.path("tools").path(0);
            assertThat(first.path("verb").asText()).isEqualTo(verbOf(open));
            assertThat(first.path("description").asText()).isEqualTo("Looks up a rate.");
            assertThat(first.path("risk").asText()).isEqualTo("READ_ONLY");
            assertThat(first.path("confidence").asDouble()).isEqualTo(0.7);
            assertThat(found.path("tools").path(1).path("required").toString())
                    .isEqualTo("[\"value\",\"from\",\"to\"]");

            SearchRequest asked = librarian.requestsFor(null).stream().filter(r -> query.equals(r.queryText()))
                    .findFirst().orElseThrow();
            assertThat(asked.caller()).isEqualTo(PLANNER_NAME);
            assertThat(asked.verb()).isNull();

            // a budget that holds one entry but not two: the answer costs at most the budget
            int oneEntry = CL100K.countTokens(McpClient.text(result)) - 25;
            JsonNode tight = mcp.callTool("find_tools", Map.of("query", query, "token_budget", oneEntry));
            assertThat(CL100K.countTokens(McpClient.text(tight))).isLessThanOrEqualTo(oneEntry);
            assertThat(McpClient.structured(tight).path("tools").size()).isEqualTo(1);
            assertThat(McpClient.structured(tight).path("omitted").asInt()).isEqualTo(1);

            // a disabled or foreign tool cannot be described or loaded either, and is refused alike
            for (String refusedId : List.of(disabled, foreign, "nowhere.tool")) {
                JsonNode described = mcp.callTool("describe_tool", Map.of("id", refusedId));
                assertThat(described.path("isError").asBoolean()).isTrue();
                assertThat(McpClient.structured(described).path("error").asText())
                        .isEqualTo("no tool '" + refusedId + "' that you may call (find_tools lists them)");
            }
            JsonNode badLimit = mcp.callTool("find_tools", Map.of("query", query, "limit", 0));
            assertThat(badLimit.path("isError").asBoolean()).isTrue();
            assertThat(McpClient.structured(badLimit).path("error").asText()).isEqualTo("limit: 0 is outside 1..50");
        }
    }

    @Test
    void aToolPastItsQuotaIsRefusedOverMcpExactlyAsOverKafka() throws Exception {
        String toolId = rateToolWith("quota", new UsagePolicy(null, new UsagePolicy.Quota(1L, 100L), null, null, null));
        try (McpClient mcp = client(PLANNER)) {
            mcp.initialize();
            JsonNode describedBefore = McpClient.structured(mcp.callTool("describe_tool", Map.of("id", toolId)));
            assertThat(describedBefore.path("policy").path("quotaPerDay").asLong()).isEqualTo(1);
            assertThat(describedBefore.path("policy").path("quotaLeftToday").asLong()).isEqualTo(1);
            assertThat(describedBefore.path("inputSchema").path("properties").has("case")).isTrue();
            assertThat(describedBefore.path("health").path("status").asText()).isEqualTo("ENABLED");

            JsonNode first = mcp.callTool("call_tool", Map.of("id", toolId, "arguments", Map.of("case", toolId)));
            assertThat(McpClient.structured(first).path("outputs").path("rate").asDouble()).isEqualTo(1.5);

            JsonNode refused = mcp.callTool("call_tool", Map.of("id", toolId, "arguments", Map.of("case", toolId)));
            assertThat(refused.path("isError").asBoolean()).isTrue();
            JsonNode overMcp = McpClient.structured(refused);
            assertThat(overMcp.path("status").asText()).isEqualTo("DENIED");
            assertThat(overMcp.path("error").asText()).contains("daily quota of 1 call for " + toolId, "used up");
            assertThat(McpClient.structured(mcp.callTool("describe_tool", Map.of("id", toolId)))
                    .path("policy").path("quotaLeftToday").asLong()).isZero();

            String plan = id("plan");
            try (KafkaTestClient kafka = Steps.kafka();
                    KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
                PlanStep step = Steps.step("k-" + plan, plan, verbOf(toolId), Steps.inputs("case", toolId));
                kafka.send(Topics.PLAN_STEPS, plan, step);
                StepResult overKafka = Steps.result(results, step.stepId());
                assertThat(overKafka.status()).isEqualTo(StepStatus.DENIED);
                assertThat(overKafka.error()).isEqualTo(overMcp.path("error").asText());
            }
        }
    }

    @Test
    void aLoadedToolIsAToolOfThatSessionOnlyAndItsCallsTakeTheStepPath() throws Exception {
        String toolId = rateToolWith("loaded", UsagePolicy.unrestricted());
        String verb = verbOf(toolId);
        try (McpClient one = client(PLANNER); McpClient other = client(PLANNER)) {
            one.initialize();
            other.initialize();
            one.listen();
            JsonNode loaded = McpClient.structured(one.callTool("load_tools", Map.of("ids", List.of(toolId,
                    "nowhere.tool"))));
            assertThat(loaded.path("active").toString()).isEqualTo("[\"" + toolId + "\"]");
            assertThat(loaded.path("refused").path(0).asText()).startsWith("nowhere.tool: no tool");
            await().atMost(Duration.ofSeconds(5)).until(() -> one.pushed().stream()
                    .anyMatch(m -> "notifications/tools/list_changed".equals(m.path("method").asText())));

            assertThat(names(one)).contains(verb).containsAll(META_TOOLS);
            JsonNode listed = toolNamed(one, verb);
            assertThat(listed.path("inputSchema").path("properties").has("case")).isTrue();
            assertThat(listed.path("annotations").path("readOnlyHint").asBoolean()).isTrue();
            assertThat(names(other)).doesNotContain(verb);

            JsonNode direct = one.callTool(verb, Map.of("case", toolId));
            assertThat(direct.path("isError").asBoolean()).as(direct.toString()).isFalse();
            JsonNode answer = McpClient.structured(direct);
            assertThat(answer.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(answer.path("servedBy").path("toolId").asText()).isEqualTo(toolId);
            given().header("X-API-Key", PLANNER).get("/steps/" + answer.path("stepId").asText()).then().statusCode(200);

            // another session cannot call what it did not load
            JsonNode foreignCall = other.exchange("tools/call", JSON.createObjectNode().put("name", verb)
                    .set("arguments", JSON.valueToTree(Map.of("case", toolId))));
            assertThat(foreignCall.has("error") || foreignCall.path("result").path("isError").asBoolean())
                    .as(foreignCall.toString()).isTrue();

            assertThat(McpClient.structured(one.callTool("active_tools", Map.of())).path("active").toString())
                    .isEqualTo("[\"" + toolId + "\"]");
            JsonNode unloaded = McpClient.structured(one.callTool("unload_tools", Map.of("ids", List.of(toolId))));
            assertThat(unloaded.path("active").size()).isZero();
            assertThat(names(one)).doesNotContain(verb);
        }
    }

    @Test
    void aNovelVerbWithoutAConfidentMatchGivesTheCallersChoicesOnEveryDoorAndAChosenToolIsRunAndLearned()
            throws Exception {
        String open = rateToolWith("cand", UsagePolicy.unrestricted());
        String foreign = rateToolWith("candforeign", new UsagePolicy(null, null, null, List.of("someone-else"), null));
        String verb = "FETCH_SOME_RATE_" + id("v").substring(2).toUpperCase().replace('-', '_');
        librarian.answer(verb, request -> new SearchReply(request.requestId(), List.of(hit(foreign, verbOf(foreign), 0.3),
                hit(open, verbOf(open), 0.2)), 0.8, null));
        try (McpClient mcp = client(PLANNER);
                KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            mcp.initialize();
            JsonNode result = mcp.callTool("run_step", Map.of("verb", verb, "inputs", Map.of("region", "north")));
            assertThat(result.path("isError").asBoolean()).isTrue();
            JsonNode answer = McpClient.structured(result);
            assertThat(answer.path("status").asText()).isEqualTo("UNRESOLVED");
            assertThat(answer.path("candidates").size()).isEqualTo(1);
            JsonNode candidate = answer.path("candidates").path(0);
            assertThat(candidate.path("id").asText()).isEqualTo(open);
            assertThat(candidate.path("verb").asText()).isEqualTo(verbOf(open));
            assertThat(candidate.path("confidence").asDouble()).isEqualTo(0.2);
            assertThat(candidate.has("required")).isFalse(); // its schema requires nothing

            // the same result on step-results (read through the contract's schema) carries the old and new fields
            StepResult published = Steps.result(results, answer.path("stepId").asText());
            assertThat(published.candidates()).extracting(SearchHit::toolId).containsExactly(foreign, open);
            assertThat(published.choices()).extracting(dev.toolsmith.contracts.step.ToolChoice::id).containsExactly(open);

            // over REST too, and a follow-up naming the chosen tool runs it and learns the verb
            String restVerb = verb + "_REST";
            librarian.answer(restVerb, request -> new SearchReply(request.requestId(), List.of(hit(open, verbOf(open),
                    0.2)), 0.8, null));
            StepResult unresolved = WrappedPlugins.runStep(PLANNER, restVerb, Map.of("region", "north"));
            assertThat(unresolved.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(unresolved.choices()).extracting(dev.toolsmith.contracts.step.ToolChoice::id).containsExactly(open);
            String body = "{\"stepId\":\"" + id("chosen") + "\",\"planId\":\"" + id("plan") + "\",\"actionVerb\":\""
                    + restVerb + "\",\"toolId\":\"" + open + "\",\"inputs\":{\"case\":{\"value\":\"" + open + "\"}}}";
            given().header("X-API-Key", PLANNER).contentType("application/json").body(body).post("/steps").then()
                    .statusCode(200).body("status", org.hamcrest.Matchers.equalTo("SUBSTITUTED"))
                    .body("servedBy.toolId", org.hamcrest.Matchers.equalTo(open))
                    .body("substitution.confidence", org.hamcrest.Matchers.equalTo(1.0f));
            given().header("X-API-Key", PLANNER).get("/aliases").then().statusCode(200)
                    .body("find { it.verb == '" + dev.toolsmith.contracts.tool.VerbNormalizer.normalize(restVerb)
                            + "' }.toolId", org.hamcrest.Matchers.equalTo(open));
            assertThat(WrappedPlugins.runStep(PLANNER, restVerb, Map.of("case", open)).substitution().viaAlias()).isTrue();

            // over MCP: run_step with the chosen tool_id
            JsonNode chosen = McpClient.structured(mcp.callTool("run_step", Map.of("verb", verb, "tool_id", open,
                    "inputs", Map.of("case", open))));
            assertThat(chosen.path("status").asText()).isEqualTo("SUBSTITUTED");
            // a tool the caller may not call is refused by the policy even when chosen
            JsonNode refused = McpClient.structured(mcp.callTool("run_step", Map.of("verb", verb + "_X", "tool_id",
                    foreign, "inputs", Map.of("case", foreign))));
            assertThat(refused.path("status").asText()).isEqualTo("DENIED");
            assertThat(refused.path("error").asText()).contains("caller 'planner-a' is not allowed to call " + foreign);
        }
    }

    private static List<String> names(McpClient mcp) throws Exception {
        List<String> names = new ArrayList<>();
        mcp.call("tools/list", null).path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static JsonNode toolNamed(McpClient mcp, String name) throws Exception {
        for (JsonNode tool : mcp.call("tools/list", null).path("tools")) {
            if (name.equals(tool.path("name").asText())) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name);
    }
}
