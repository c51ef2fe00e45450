package dev.toolsmith.librarian.search;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.catalog.StoredTool;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Searches the freshly loaded index with the catalog's own tool descriptions before the replica takes
 * traffic. A fresh JVM's first searches are slow (the embedding models' first runs, class loading,
 * interpreted code): without this the first planner steps with a novel verb after a start waited ~1 s,
 * and the rest of their first few hundred ~50–100 ms. The searches go straight to the index, so they
 * count in no search metric; their query vectors stay in the query cache like any others.
 */
@ApplicationScoped
public class SearchWarmUp {

    /** Few enough to keep the start short (~10–20 ms a search while cold, on two cores). */
    private final int searches;
    private final ToolIndex index;

    public SearchWarmUp(ToolIndex index,
            @ConfigProperty(name = "toolsmith.search.warm-up-searches", defaultValue = "100") int searches) {
        if (searches < 0) {
            throw new IllegalArgumentException("toolsmith.search.warm-up-searches must be 0 (off) or more, got "
                    + searches);
        }
        this.index = index;
        this.searches = searches;
    }

    /** Runs the warm-up searches over {@code tools}' descriptions (none without tools); returns how many ran. */
    public int run(List<StoredTool> tools) {
        if (tools.isEmpty()) {
            return 0;
        }
        for (int i = 0; i < searches; i++) {
            index.search(ToolQuery.text(queryText(tools.get(i % tools.size()).entry().manifest(), i), 5));
        }
        return searches;
    }

    /** Distinct texts, so each search embeds its query rather than hitting the query cache. */
    private static String queryText(ToolManifest tool, int round) {
        String about = tool.description() == null || tool.description().isBlank() ? tool.name() : tool.description();
        return (about == null ? tool.verb() : about) + " (" + round + ")";
    }
}
