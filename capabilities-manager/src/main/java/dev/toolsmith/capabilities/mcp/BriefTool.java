package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.tool.Risk;
import java.util.List;

/**
 * A tool in brief, as {@code find_tools} and the candidates of a step an LLM planner reads: enough to choose
 * it, never its full schema ({@code describe_tool} gives that). {@code confidence} is the search's calibrated
 * probability that this is the right tool (docs/search.md).
 */
// Empty fields are left out: every token counts against the planner's budget.
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record BriefTool(String id, String verb, String description, Risk risk, List<String> required,
        double confidence) {

    public BriefTool {
        required = required == null ? List.of() : List.copyOf(required);
    }
}
