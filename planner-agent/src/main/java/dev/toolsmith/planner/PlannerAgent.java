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
 * A planner that reaches a goal with Toolsmith's tools over MCP: the LLM sees only the meta-tools
 * {@code find_tools}, {@code describe_tool} and {@code call_tool} (docs/mcp.md), so its tool context stays a few
 * hundred tokens whatever the catalog's size, and every call it makes runs through Toolsmith's plan-step path
 * (policy, sandbox, usage, audit) as the planner whose key authenticates the session.
 */
public final class PlannerAgent implements AutoCloseable {

    /** The meta-tools the agent is given; the active-set tools are for clients that keep tools loaded. */
    static final List<String> META_TOOLS = List.of("find_tools", "describe_tool", "call_tool");

    interface Planner {
        @SystemMessage("""
                You reach the user's goal with tools you find in Toolsmith's governed catalog.
                1. Call find_tools with what the goal needs, in plain words; read the brief entries it returns.
                2. Call describe_tool with the id of the best entry to learn its input schema and limits.
                3. Call call_tool with that id and arguments matching the schema.
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
        this(OpenAiChatModel.builder().baseUrl(settings.llmBaseUrl()).apiKey(settings.llmApiKey())
                .modelName(settings.llmModel()).timeout(settings.timeout()).build(), settings);
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

    /** {@code java -cp ... dev.toolsmith.planner.PlannerAgent "convert 100 euros into dollars"} */
    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].isBlank()) {
            System.err.println("usage: PlannerAgent \"<goal in plain language>\" (settings: docs/mcp.md)");
            System.exit(2);
        }
        try (PlannerAgent agent = new PlannerAgent(AgentSettings.fromEnvironment(System.getenv()))) {
            Outcome outcome = agent.achieve(String.join(" ", args));
            for (ToolExecution call : outcome.calls()) {
                System.out.println("> " + call.request().name() + " " + call.request().arguments());
                System.out.println("< " + call.result());
            }
            System.out.println(outcome.answer());
        }
    }
}
