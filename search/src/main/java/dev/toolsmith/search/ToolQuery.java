package dev.toolsmith.search;

import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.List;
import java.util.function.Predicate;

/**
 * One search: free text and/or a planner verb, context words, filters applied before ranking, the
 * caller's access rule and how many hits to return. Every field may be null or empty.
 *
 * @param allowed the caller's access rule, applied like a filter (before the limit); {@code null} allows all
 */
public record ToolQuery(String text, String verb, List<String> contextEntities, SearchFilters filters,
        Predicate<ToolManifest> allowed, int limit, RetrievalMode mode) {

    public ToolQuery {
        contextEntities = contextEntities == null ? List.of()
                : contextEntities.stream().filter(e -> e != null && !e.isBlank()).toList();
        filters = filters == null ? SearchFilters.none() : filters;
        allowed = allowed == null ? t -> true : allowed;
        limit = Math.max(0, Math.min(limit, SearchRequest.MAX_LIMIT));
        mode = mode == null ? RetrievalMode.HYBRID : mode;
    }

    public static ToolQuery text(String text, int limit) {
        return new ToolQuery(text, null, null, null, null, limit, RetrievalMode.HYBRID);
    }

    /** The query a {@link SearchRequest} asks for, restricted to what {@code allowed} lets the caller use. */
    public static ToolQuery of(SearchRequest request, Predicate<ToolManifest> allowed) {
        return new ToolQuery(request.queryText(), request.verb(), request.contextEntities(), request.filters(),
                allowed, request.effectiveLimit(), RetrievalMode.HYBRID);
    }

    public ToolQuery withFilters(SearchFilters newFilters) {
        return new ToolQuery(text, verb, contextEntities, newFilters, allowed, limit, mode);
    }

    public ToolQuery withAllowed(Predicate<ToolManifest> newAllowed) {
        return new ToolQuery(text, verb, contextEntities, filters, newAllowed, limit, mode);
    }

    public ToolQuery withLimit(int newLimit) {
        return new ToolQuery(text, verb, contextEntities, filters, allowed, newLimit, mode);
    }

    public ToolQuery withMode(RetrievalMode newMode) {
        return new ToolQuery(text, verb, contextEntities, filters, allowed, limit, newMode);
    }

    /**
     * What the matchers read: the verb as words first (it names the intent), then the text, then the
     * context entities; capped at {@value SearchDefaults#MAX_QUERY_CHARS} characters. Public for the benchmarks,
     * which embed exactly what a search embeds.
     */
    public String matchText() {
        StringBuilder sb = new StringBuilder();
        String v = VerbNormalizer.normalize(verb);
        if (!v.isEmpty()) {
            sb.append(v);
        }
        if (text != null && !text.isBlank()) {
            if (sb.length() > 0) {
                sb.append(": ");
            }
            sb.append(text.strip());
        }
        if (!contextEntities.isEmpty()) {
            sb.append(sb.length() > 0 ? " (" : "(").append(String.join(", ", contextEntities)).append(')');
        }
        String s = sb.toString();
        return s.length() <= SearchDefaults.MAX_QUERY_CHARS ? s : s.substring(0, SearchDefaults.MAX_QUERY_CHARS);
    }
}
