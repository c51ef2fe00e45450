package dev.toolsmith.capabilities.mcp;

import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.resolution.ToolChoices;
import dev.toolsmith.capabilities.resolution.ToolSearchClient;
import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Finds tools for a planner: asks the librarian over Kafka (the same {@code tool-search-requests} the
 * novel-verb path uses, on behalf of the caller, so the catalog's allowed callers apply before ranking) and
 * keeps only the hits this caller can call here and now: registered, not disabled, and allowed by the policy
 * in force (which may be newer than the catalog's copy).
 */
@ApplicationScoped
public class ToolFinder {

    private final ToolSearchClient search;
    private final ToolChoices choices;

    public ToolFinder(ToolSearchClient search, ToolChoices choices) {
        this.search = search;
        this.choices = choices;
    }

    /** What the librarian said, or why it said nothing. */
    public record Found(List<ToolChoice> tools, String error) {
    }

    public Uni<Found> find(String query, int limit, String caller) {
        SearchRequest request = new SearchRequest("mcp-" + UUID.randomUUID(), query, null, List.of(), null, limit, caller);
        return search.search(request).map(reply -> reply.map(r -> found(r, caller))
                .orElseGet(() -> new Found(List.of(), "the librarian did not answer in time; try again")));
    }

    private Found found(SearchReply reply, String caller) {
        if (reply.error() != null) {
            return new Found(List.of(), reply.error());
        }
        return new Found(choices.of(reply.hits(), caller), null);
    }

    /** The registered plugin with this id if it serves and {@code caller} may call it. */
    public Optional<Plugin> callable(String toolId, String caller) {
        return choices.callable(toolId, caller);
    }
}
