package dev.toolsmith.planner;

import dev.langchain4j.mcp.McpToolProvider;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.tool.ToolExecution;
import java.util.List;
import java.util.Map;

/**
 * The planner agent's MCP mode: it reaches a goal with Toolsmith's tools over MCP (Streamable HTTP, the planner's key
 * as bearer). The LLM sees only the meta-tools {@code find_tools}, {@code describe_tool}, {@code call_tool} and
 * {@code run_step} (docs/mcp.md), so its tool context stays a few hundred tokens whatever the catalog's size, and every
 * call it makes runs through Toolsmith's plan-step path (policy, sandbox, usage, audit) as the planner whose key
 * authenticates the session. (The active set, {@code load_tools}, is left out: LangChain4j fixes an invocation's
 * tools when it starts, so a tool loaded mid-conversation would not reach the model before the next goal.)
 */
public final class PlannerAgent implements AutoCloseable {

    /** The meta-tools the agent is given; the active-set tools are for clients that keep tools loaded. */
    static final List<String> META_TOOLS = List.of("find_tools", "describe_tool", "call_tool", "run_step");

    interface Planner {
        @SystemMessage("""
                You reach the user's goal with tools you find in Toolsmith's governed catalog.
                1. Call find_tools with what the goal needs, in plain words; read the brief entries it returns.
                2. Call describe_tool with the id of the best entry to learn its input schema and limits.
                3. Call call_tool with that id and arguments matching the schema.
                When no tool fits, call run_step with an action verb for the intent and its inputs: Toolsmith looks
                for a tool itself; if it answers UNRESOLVED or PROPOSED with candidates, call run_step again with the
                tool_id of the one you choose.
                If a call comes back as an error, read its reason: do not retry a refused call (quota used up, not
                allowed, disabled); try another tool or say why the goal cannot be reached. Answer with the result.""")
        Result<String> achieve(@UserMessage String goal);
    }

    /** The agent's answer and every meta-tool call it made, in order. */
    public record Outcome(String answer, List<ToolExecution> calls) {
    }

    private final McpClient mcp;
    private final Planner planner;

    public PlannerAgent(AgentSettings settings) {
        this(chatModel(settings), settings);
    }

    /**
     * The OpenAI-compatible chat model the settings name (both modes use it), at temperature 0: a plan and a choice of
     * tool should not change from one run to the next for the same goal and results.
     */
    public static ChatModel chatModel(AgentSettings settings) {
        return OpenAiChatModel.builder().baseUrl(settings.llmBaseUrl()).apiKey(settings.llmApiKey())
                .modelName(settings.llmModel()).temperature(0.0).timeout(settings.timeout()).build();
    }

    PlannerAgent(ChatModel model, AgentSettings settings) {
        this.mcp = DefaultMcpClient.builder().key("toolsmith")
                .transport(StreamableHttpMcpTransport.builder().url(settings.mcpUrl())
                        .customHeaders(Map.of("Authorization", "Bearer " + settings.plannerKey()))
                        .timeout(settings.timeout()).build())
                .build();
        this.planner = AiServices.builder(Planner.class).chatModel(model)
                .toolProvider(McpToolProvider.builder().mcpClients(mcp).filterToolNames(META_TOOLS.toArray(String[]::new))
                        .build())
                .build();
    }

    public Outcome achieve(String goal) {
        Result<String> result = planner.achieve(goal);
        return new Outcome(result.content(), result.toolExecutions());
    }

    @Override
    public void close() throws Exception {
        mcp.close();
    }
}
