package dev.toolsmith.librarian.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The selected tools as a prompt would carry them, in order (core tools first, then the best matches),
 * the tokens they use (never above the budget), how many candidates were left out because they did not
 * fit, and the requested core tools that are unknown, disabled or not visible to the caller.
 */
public record SelectResponse(List<SelectedTool> tools, int tokensUsed, int tokenBudget, int omitted,
        List<String> unavailableCoreTools) {

    /** One tool's function definition and its cost in tokens. */
    public record SelectedTool(String toolId, String verb, String name, String description, JsonNode inputSchema,
            int tokens) {
    }
}
