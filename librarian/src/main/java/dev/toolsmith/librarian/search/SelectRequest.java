package dev.toolsmith.librarian.search;

import java.util.List;

/**
 * {@code POST /tools/select}: the tools to put in a planner's prompt for {@code message} within
 * {@code tokenBudget} cl100k_base tokens; the {@code coreTools} (ids) go first when they fit.
 */
public record SelectRequest(String message, Integer tokenBudget, List<String> coreTools, String caller) {

    public SelectRequest {
        coreTools = coreTools == null ? List.of() : coreTools;
    }
}
