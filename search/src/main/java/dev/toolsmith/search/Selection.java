package dev.toolsmith.search;

import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;

/**
 * Tools to put in a prompt: the core tools that fit, then the best matches that fit.
 *
 * @param tokensUsed cl100k_base tokens of the selected tools' definitions; never above the budget
 * @param omitted    candidates (core tools and matches considered) left out because they did not fit
 */
public record Selection(List<ToolManifest> tools, int tokensUsed, int tokenBudget, int omitted) {

    public Selection {
        tools = List.copyOf(tools);
    }
}
