package dev.toolsmith.e2e.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.service.tool.ToolExecution;
import dev.toolsmith.planner.AgentSettings;
import dev.toolsmith.planner.PlannerAgent;
import dev.toolsmith.testsupport.mcp.McpClient;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's MCP part, against the capabilities manager's {@code /mcp} with the planner's key as bearer: a scripted raw
 * JSON-RPC session (initialize → tools/list → find_tools → describe_tool → load_tools → the loaded tool called by its
 * own name → unload_tools), each message printed as sent with the gist of its answer; then the reference planner agent
 * reaching a goal through the meta-tools, its LLM the one TOOLSMITH_LLM_* names or, without it, a local WireMock
 * playing the recorded answers ({@link RecordedLlm}).
 */
final class McpDemo {

    static final String GOAL = "How many US dollars are 100 euros?";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration INDEX_WAIT = Duration.ofSeconds(60);

    private final String mcpUrl;
    private final String plannerKey;
    private final Map<String, String> llmEnvironment;

    McpDemo(String capabilitiesUrl, String plannerKey, Map<String, String> llmEnvironment) {
        this.mcpUrl = capabilitiesUrl + "/mcp";
        this.plannerKey = plannerKey;
        this.llmEnvironment = llmEnvironment;
    }

    /** The raw session around {@code toolId} (whose verb is {@code verb}); throws naming the step that went wrong. */
    void rawSession(String toolId, String verb) throws IOException, InterruptedException {
        try (McpClient mcp = new McpClient(mcpUrl, plannerKey)) {
            ObjectNode hello = JSON.createObjectNode().put("protocolVersion", McpClient.PROTOCOL);
            hello.putObject("clientInfo").put("name", "toolsmith-raw-client").put("version", "1");
            sent("initialize", hello);
            JsonNode initialized = mcp.initialize();
            System.out.printf("   <- %s %s, protocol %s, session %s%n", initialized.path("serverInfo").path("name").asText(),
                    initialized.path("serverInfo").path("version").asText(), initialized.path("protocolVersion").asText(),
                    mcp.session());

            sent("tools/list", null);
            System.out.println("   <- tools " + names(mcp.call("tools/list", null)));

            Map<String, Object> query = Map.of("query", "convert an amount between currencies", "limit", 5, "token_budget", 400);
            sentTool("find_tools", query);
            JsonNode found = Poll.until(INDEX_WAIT, () -> findsTool(mcp, query, toolId)).orElseThrow(() ->
                    new IllegalStateException("find_tools did not list " + toolId + " within " + INDEX_WAIT.toSeconds() + " s"));
            for (JsonNode brief : found.path("tools")) {
                System.out.println("   <- " + brief);
            }
            System.out.printf("      (%d listed within a budget of %d tokens, %d ranked tools left out)%n",
                    found.path("tools").size(), found.path("tokenBudget").asInt(), found.path("omitted").asInt());

            sentTool("describe_tool", Map.of("id", toolId));
            JsonNode described = answer(mcp.callTool("describe_tool", Map.of("id", toolId)), "describe_tool");
            JsonNode policy = described.path("policy");
            System.out.printf("   <- %s (%s, %s): input %s; quota left today %s; health %s%n", described.path("id").asText(),
                    described.path("verb").asText(), described.path("risk").asText(),
                    described.path("inputSchema").path("properties").properties().stream().map(Map.Entry::getKey).toList(),
                    policy.path("quotaLeftToday").asText("unlimited"), described.path("health").path("status").asText());

            sentTool("load_tools", Map.of("ids", List.of(toolId)));
            JsonNode loaded = answer(mcp.callTool("load_tools", Map.of("ids", List.of(toolId))), "load_tools");
            List<String> listed = names(mcp.call("tools/list", null));
            System.out.println("   <- active " + loaded.path("active") + "; tools/list now: " + listed);
            if (!listed.contains(verb)) {
                throw new IllegalStateException("the loaded tool " + verb + " is not in the session's tools/list: " + listed);
            }

            Map<String, Object> arguments = Map.of("amount", 100, "from", "EUR", "to", "USD");
            sentTool(verb, arguments);
            JsonNode called = answer(mcp.callTool(verb, arguments), verb);
            System.out.println("   <- " + called.path("status").asText() + " outputs " + called.path("outputs")
                    + " (step " + called.path("stepId").asText() + " of plan " + called.path("planId").asText() + ")");

            sentTool("unload_tools", Map.of("ids", List.of(toolId)));
            JsonNode unloaded = answer(mcp.callTool("unload_tools", Map.of("ids", List.of(toolId))), "unload_tools");
            System.out.println("   <- active " + unloaded.path("active") + "; tools/list: " + names(mcp.call("tools/list", null)));
        }
    }

    /** The planner agent reaches {@link #GOAL}; {@code toolId} is what the recorded answers expect it to find. */
    void agent(String toolId) throws Exception {
        boolean recorded = llmEnvironment.get("TOOLSMITH_LLM_BASE_URL") == null;
        RecordedLlm llm = recorded ? RecordedLlm.start("mcp-convert", Map.of("TOOL_ID", toolId)) : null;
        try {
            AgentSettings settings = recorded
                    ? new AgentSettings(llm.baseUrl(), "none", "recorded", mcpUrl, plannerKey, null)
                    : new AgentSettings(llmEnvironment.get("TOOLSMITH_LLM_BASE_URL"),
                            llmEnvironment.getOrDefault("TOOLSMITH_LLM_API_KEY", "none"),
                            llmEnvironment.get("TOOLSMITH_LLM_MODEL"), mcpUrl, plannerKey, null);
            System.out.println("   goal: \"" + GOAL + "\"");
            System.out.println(recorded
                    ? "   LLM: recorded answers (TOOLSMITH_LLM_BASE_URL is not set), played by a local WireMock at "
                            + llm.baseUrl() + " from recorded-llm/mcp-convert.json"
                    : "   LLM: " + settings.llmBaseUrl() + " model " + settings.llmModel());
            PlannerAgent.Outcome outcome;
            try (PlannerAgent agent = new PlannerAgent(settings)) {
                outcome = agent.achieve(GOAL);
            }
            boolean reached = false;
            for (ToolExecution call : outcome.calls()) {
                System.out.println("   agent > " + call.request().name() + " " + call.request().arguments());
                System.out.println("   agent < " + shorten(call.result()));
                reached |= call.request().name().matches("call_tool|run_step")
                        && call.result().matches("(?s).*\"status\"\\s*:\\s*\"(SUCCEEDED|SUBSTITUTED)\".*");
            }
            System.out.println("   answer: " + outcome.answer());
            if (recorded && !llm.unanswered().isEmpty()) {
                throw new IllegalStateException("the agent asked what the recording does not answer: "
                        + shorten(llm.unanswered().get(0)));
            }
            if (!reached) {
                throw new IllegalStateException("no tool call of the agent succeeded");
            }
        } finally {
            if (llm != null) {
                llm.close();
            }
        }
    }

    private static JsonNode findsTool(McpClient mcp, Map<String, Object> query, String toolId) {
        try {
            JsonNode found = answer(mcp.callTool("find_tools", query), "find_tools");
            return found.toString().contains("\"" + toolId + "\"") ? found : null;
        } catch (IOException e) {
            throw new IllegalStateException("find_tools failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The tool's answer; a tool error (isError) ends the stage with its reason. */
    private static JsonNode answer(JsonNode toolResult, String tool) throws IOException {
        // the text content, as a client that ignores structured content reads it
        JsonNode content = JSON.readTree(McpClient.text(toolResult));
        if (toolResult.path("isError").asBoolean()) {
            throw new IllegalStateException(tool + " answered an error: " + content.path("error").asText(content.toString()));
        }
        return content;
    }

    private static void sent(String method, JsonNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        System.out.println("   -> " + message);
    }

    private static void sentTool(String tool, Map<String, Object> arguments) {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        sent("tools/call", params);
    }

    private static List<String> names(JsonNode toolsList) {
        List<String> names = new ArrayList<>();
        toolsList.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        return names;
    }

    private static String shorten(String text) {
        String line = text.replaceAll("\\s+", " ");
        return line.length() > 240 ? line.substring(0, 240) + "…" : line;
    }
}
