package dev.toolsmith.librarian.search;

import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.Selection;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.ToolTokens;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Search and selection over this replica's in-memory index, for REST and Kafka alike. Checks what the
 * JSON Schema cannot (byte length, blank text, filter values that name nothing), then lets the library
 * rank with the filters and the caller's access applied before ranking and limit. Touches no database.
 */
@ApplicationScoped
public class ToolSearch {

    /** Longest query or message accepted, in UTF-8 bytes. */
    public static final int MAX_TEXT_BYTES = 4096;
    public static final int MAX_TOKEN_BUDGET = 1_000_000;
    public static final int MAX_CORE_TOOLS = 100;

    private final ToolIndex index;
    private final CatalogProjection projection;
    private final Timer searchTime;
    private final Counter emptyResults;

    public ToolSearch(ToolIndex index, CatalogProjection projection, MeterRegistry metrics) {
        this.index = index;
        this.projection = projection;
        this.searchTime = Timer.builder("toolsmith.librarian.search")
                .description("Time to rank tools for a valid request (query embedding included)")
                .publishPercentiles(0.5, 0.99).register(metrics);
        this.emptyResults = Counter.builder("toolsmith.librarian.search.empty")
                .description("Valid searches that found no tool").register(metrics);
    }

    /** Ranks the tools {@code caller} may use for {@code request}; a {@link ContractViolation} names bad input. */
    public SearchResult search(SearchRequest request, String caller) {
        requireText("/queryText", request.queryText());
        int limit = request.effectiveLimit();
        if (limit < 1 || limit > SearchRequest.MAX_LIMIT) {
            throw new ContractViolation("/limit", "field /limit: " + limit + " is outside 1.." + SearchRequest.MAX_LIMIT);
        }
        SearchFilters filters = request.filters();
        String namespace = blankToNull(filters.namespace());
        String domain = blankToNull(filters.domain());
        if (namespace != null && !projection.knowsNamespace(namespace)) {
            throw new ContractViolation("/filters/namespace", "field /filters/namespace: unknown namespace '"
                    + namespace + "'");
        }
        if (domain != null && !projection.knowsDomain(domain)) {
            throw new ContractViolation("/filters/domain", "field /filters/domain: unknown domain '" + domain + "'");
        }
        String status = filters.status() == null ? "active" : filters.status().strip().toLowerCase(Locale.ROOT);
        switch (status) {
            case "active", "any" -> { }
            // Disabled tools never appear in search, whoever asks.
            case "disabled" -> {
                return SearchResult.empty();
            }
            default -> throw new ContractViolation("/filters/status", "field /filters/status: unknown status '"
                    + filters.status() + "' (active, disabled or any)");
        }
        ToolQuery query = ToolQuery.of(request, projection.accessRule(caller))
                .withFilters(new SearchFilters(namespace, domain, filters.risk(), null));
        SearchResult result = searchTime.record(() -> index.search(query));
        if (result.hits().isEmpty()) {
            emptyResults.increment();
        }
        return result;
    }

    /** The core tools, then the best matches, that {@code caller} may use and that fit the token budget. */
    public SelectResponse select(SelectRequest request, String caller) {
        requireText("/message", request.message());
        if (request.tokenBudget() == null) {
            throw new ContractViolation("/tokenBudget", "field /tokenBudget: required");
        }
        int budget = request.tokenBudget();
        if (budget < 1 || budget > MAX_TOKEN_BUDGET) {
            throw new ContractViolation("/tokenBudget", "field /tokenBudget: " + budget + " is outside 1.."
                    + MAX_TOKEN_BUDGET);
        }
        if (request.coreTools().size() > MAX_CORE_TOOLS) {
            throw new ContractViolation("/coreTools", "field /coreTools: " + request.coreTools().size()
                    + " tools, at most " + MAX_CORE_TOOLS);
        }
        Predicate<ToolManifest> access = projection.accessRule(caller);
        Set<String> core = new LinkedHashSet<>();
        List<String> unavailable = new ArrayList<>();
        for (String id : request.coreTools()) {
            boolean visible = id != null && index.get(id).filter(access)
                    .filter(t -> index.status(id).map(s -> s != dev.toolsmith.contracts.build.PluginStatus.DISABLED)
                            .orElse(false))
                    .isPresent();
            if (visible) {
                core.add(id);
            } else if (id != null) {
                unavailable.add(id);
            }
        }
        Selection selection = index.select(request.message(), budget, core,
                ToolQuery.text(request.message(), SearchRequest.MAX_LIMIT).withAllowed(access));
        List<SelectResponse.SelectedTool> tools = selection.tools().stream()
                .map(t -> new SelectResponse.SelectedTool(t.id(), t.verb(), t.name(), t.description(), t.inputSchema(),
                        ToolTokens.count(t)))
                .toList();
        return new SelectResponse(tools, selection.tokensUsed(), selection.tokenBudget(), selection.omitted(),
                unavailable);
    }

    private static void requireText(String pointer, String text) {
        if (text == null || text.isBlank()) {
            throw new ContractViolation(pointer, "field " + pointer + ": must not be empty");
        }
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_TEXT_BYTES) {
            throw new ContractViolation(pointer, "field " + pointer + ": " + bytes + " bytes, at most " + MAX_TEXT_BYTES
                    + " (4 KB) allowed");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
