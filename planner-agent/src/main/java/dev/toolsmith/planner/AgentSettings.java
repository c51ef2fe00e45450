package dev.toolsmith.planner;

import java.time.Duration;
import java.util.Map;

/**
 * Where the planner agent's LLM and Toolsmith's MCP server are, from the environment: {@code TOOLSMITH_LLM_BASE_URL}
 * (an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1), {@code TOOLSMITH_LLM_API_KEY},
 * {@code TOOLSMITH_LLM_MODEL}, {@code TOOLSMITH_MCP_URL} (default http://127.0.0.1:8082/mcp) and
 * {@code PLANNER_API_KEY} (the planner's Toolsmith key, sent as the bearer token). Keys are never printed.
 */
public record AgentSettings(String llmBaseUrl, String llmApiKey, String llmModel, String mcpUrl, String plannerKey,
        Duration timeout) {

    public AgentSettings {
        require("TOOLSMITH_LLM_BASE_URL", llmBaseUrl);
        require("TOOLSMITH_LLM_MODEL", llmModel);
        require("TOOLSMITH_MCP_URL", mcpUrl);
        require("PLANNER_API_KEY", plannerKey);
        timeout = timeout == null ? Duration.ofSeconds(60) : timeout;
    }

    public static AgentSettings fromEnvironment(Map<String, String> env) {
        return new AgentSettings(env.get("TOOLSMITH_LLM_BASE_URL"), env.getOrDefault("TOOLSMITH_LLM_API_KEY", "none"),
                env.get("TOOLSMITH_LLM_MODEL"), env.getOrDefault("TOOLSMITH_MCP_URL", "http://127.0.0.1:8082/mcp"),
                env.get("PLANNER_API_KEY"), null);
    }

    private static void require(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set: the planner agent needs it (docs/mcp.md, \"Reference planner agent\")");
        }
    }

    @Override
    public String toString() {
        return "AgentSettings[llm=" + llmBaseUrl + " model=" + llmModel + ", mcp=" + mcpUrl + "]";
    }
}
