package dev.toolsmith.contracts.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A search for tools. Over Kafka ({@code tool-search-requests}) {@code requestId} is the step id the
 * reply is correlated by; {@code caller} restricts results to tools that caller may use.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchRequest(
        String requestId,
        String queryText,
        String verb,
        List<String> contextEntities,
        SearchFilters filters,
        Integer limit,
        String caller) {

    public static final int DEFAULT_LIMIT = 5;
    public static final int MAX_LIMIT = 100;

    public SearchRequest {
        contextEntities = contextEntities == null ? List.of() : List.copyOf(contextEntities);
        filters = filters == null ? SearchFilters.none() : filters;
    }

    public int effectiveLimit() {
        return limit == null ? DEFAULT_LIMIT : limit;
    }
}
