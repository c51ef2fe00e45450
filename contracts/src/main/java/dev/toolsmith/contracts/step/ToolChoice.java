package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.tool.Risk;
import java.util.List;

/**
 * A candidate tool in brief, as a planner (or its LLM) chooses from: the tool id to name in a follow-up step's
 * {@code toolId}, its verb, a one-line description, its risk, the input names it requires and the search's
 * calibrated confidence. The same form as the MCP meta-tool {@code find_tools} answers (docs/mcp.md).
 * Empty fields are left out: every token counts in a planner's prompt.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ToolChoice(String id, String verb, String description, Risk risk,
        List<String> required, double confidence) {

    public ToolChoice {
        required = required == null ? List.of() : List.copyOf(required);
    }
}
