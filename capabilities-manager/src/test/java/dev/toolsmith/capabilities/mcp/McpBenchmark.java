package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.ToolVectors;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.TestApprovals;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@code ./toolsmith bench mcp --tools FILE --queries FILE} (docs/mcp.md, "Benchmark"): what a planner's tool
 * context costs over MCP, listing every tool's full schema as a plain MCP server does, against the meta-tools
 * ({@code tools/list} of the meta-tools, {@code find_tools} within a token budget, {@code describe_tool} of the
 * top hit), counted in cl100k_base (jtokkit) as the server counts budgets; recall@5 of the brief list against
 * recall@5 of the full search; {@code find_tools} latency over real MCP (Streamable HTTP, JSON-RPC) at the
 * catalog's size and padded to {@code --scale} tools; the average brief entry's tokens.
 *
 * <p>The capabilities manager runs for real (its MCP server, plan-step path, PostgreSQL, Kafka); the catalog is
 * registered through {@code plugin-built} as approved builds are; the librarian's search is played by
 * {@link SearchingLibrarian}, the search library over Kafka. Skipped unless {@code mcp.bench.args} is set.
 * Arguments: {@code --tools FILE --queries FILE [--sample N] [--seed S] [--scale N] [--budget T] [--limit N]
 * [--out FILE]} (defaults: 500 queries sampled with seed 42, padded to 10,000, budget 500, limit 10); several sets in
 * one run: option groups separated by {@code ;}. Prints one line {@code mcp-benchmark {...}} per set and appends it
 * to {@code --out}.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
// Restricted: a test resource is otherwise global in Quarkus, and this database would replace the one every other
// test of the module migrates and reads.
@QuarkusTestResource(value = PostgresTestResource.class, restrictToAnnotatedClass = true,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_bench_mcp"))
@QuarkusTestResource(RecordedLlmResource.class)
@EnabledIfSystemProperty(named = "mcp.bench.args", matches = ".+")
class McpBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WARM_UP = 30;

    @Inject
    PluginRegistry registry;

    /** find_tools' own search step, timed in-process to split its latency into stages. */
    @Inject
    ToolFinder finder;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    /** Verbs are unique across the runs of one JVM: a verb is served by one registered plugin. */
    private final Set<String> verbs = new java.util.HashSet<>();
    private Map<String, String> opts;
    private int budget;
    private int limit;
    private long seed;

    /** One run per {@code ;}-separated group of options, in one JVM: one start of the service for all sets. */
    @Test
    void measure() throws Exception {
        for (String run : System.getProperty("mcp.bench.args", "").split(";")) {
            opts = options(run);
            budget = Integer.parseInt(opts.getOrDefault("budget", "500"));
            limit = Integer.parseInt(opts.getOrDefault("limit", "10"));
            seed = Long.parseLong(opts.getOrDefault("seed", "42"));
            measureOne();
        }
    }

    private void measureOne() throws Exception {
        List<ToolManifest> catalog = BenchCatalog.tools(Path.of(required("tools")), verbs);
        List<BenchCatalog.Query> queries = BenchCatalog.queries(Path.of(required("queries")),
                Integer.parseInt(opts.getOrDefault("sample", "500")), seed);
        int scale = Integer.parseInt(opts.getOrDefault("scale", "10000"));
        log("%d tools, %d queries, budget %d tokens, limit %d", catalog.size(), queries.size(), budget, limit);
        ObjectNode out = JSON.createObjectNode();
        try (ToolIndex index = ToolIndex.withDefaultModel(); SearchingLibrarian librarian = new SearchingLibrarian(index);
                McpClient mcp = new McpClient(port, PLANNER)) {
            long t0 = System.nanoTime();
            List<ToolVectors> vectors = index.vectorizeAll(catalog);
            List<ToolIndex.IndexedTool> batch = new ArrayList<>();
            for (int i = 0; i < catalog.size(); i++) {
                batch.add(new ToolIndex.IndexedTool(catalog.get(i), vectors.get(i), null));
            }
            index.upsertAll(batch);
            register(catalog);
            log("catalog indexed and registered in %d s", (System.nanoTime() - t0) / 1_000_000_000);

            mcp.initialize();
            int metaTokens = BriefLists.tokens(mcp.call("tools/list", JSON.createObjectNode()).toString());
            int listingTokens = BriefLists.tokens(BriefLists.json(Map.of("tools", catalog.stream().map(McpBenchmark::listed)
                    .toList())));
            out.put("set", Path.of(required("tools")).getParent().getFileName().toString());
            out.put("tools", catalog.size());
            out.put("queries", queries.size());
            out.put("token_budget", budget);
            out.put("limit", limit);
            out.put("listing_all_tools_tokens", listingTokens);
            out.put("meta_tools_listing_tokens", metaTokens);
            warmUp(mcp, queries);
            librarian.drainSearchMs();
            Run run = run(mcp, index, queries);
            out.set("at_catalog_size", run.json(metaTokens, listingTokens, librarian.drainSearchMs()));

            if (scale > catalog.size()) {
                t0 = System.nanoTime();
                List<ToolManifest> padding = BenchCatalog.synthetic(catalog, scale - catalog.size(), seed);
                pad(index, vectors, padding);
                register(padding);
                log("padded to %d tools in %d s", index.size(), (System.nanoTime() - t0) / 1_000_000_000);
                warmUp(mcp, queries);
                librarian.drainSearchMs();
                Run padded = run(mcp, index, queries);
                ObjectNode at = padded.json(metaTokens, -1, librarian.drainSearchMs());
                at.put("tools", index.size());
                out.set("at_scale", at);
            }
        }
        String line = JSON.writeValueAsString(out);
        if (opts.containsKey("out")) {
            Files.writeString(Path.of(opts.get("out")), line + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        }
        System.out.println("mcp-benchmark " + line);
    }

    /** One pass over the queries: each find_tools over MCP (timed), describe_tool of its top hit, the full search. */
    private Run run(McpClient mcp, ToolIndex index, List<BenchCatalog.Query> queries) throws Exception {
        Run run = new Run();
        for (BenchCatalog.Query q : queries) {
            long t0 = System.nanoTime();
            JsonNode found = mcp.callTool("find_tools", Map.of("query", q.text(), "limit", limit, "token_budget", budget));
            run.latencyMs.add((System.nanoTime() - t0) / 1e6);
            if (found.path("isError").asBoolean()) {
                run.errors++;
                continue;
            }
            String foundText = McpClient.text(found);
            JsonNode brief = McpClient.structured(found).path("tools");
            List<String> ids = new ArrayList<>();
            for (JsonNode entry : brief) {
                ids.add(entry.path("id").asText());
                run.entryTokens.add(BriefLists.tokens(entry.toString()));
            }
            int describeTokens = 0;
            if (!ids.isEmpty()) {
                describeTokens = BriefLists.tokens(McpClient.text(mcp.callTool("describe_tool", Map.of("id", ids.get(0)))));
            }
            run.findTokens.add(BriefLists.tokens(foundText));
            stages(run, q.text());
            run.describeTokens.add(describeTokens);
            run.briefRecall += recall(ids, q.gold());
            // the full search: the same request the librarian answered, all of its ranked hits, no budget
            SearchRequest request = new SearchRequest("bench", q.text(), null, List.of(), null, limit, "planner");
            run.fullRecall += recall(index.search(ToolQuery.of(request, t -> true)).hits().stream()
                    .map(SearchHit::toolId).toList(), q.gold());
            run.queries++;
        }
        return run;
    }

    /**
     * Where find_tools' time goes, measured in this JVM after the timed MCP call (so it does not slow that one):
     * the Kafka request/reply with the search (ToolFinder, which also filters the hits by registry and policy) and
     * the token-budgeted brief list. What the MCP call took beyond both is HTTP, JSON-RPC and the MCP library.
     */
    private void stages(Run run, String query) {
        long t0 = System.nanoTime();
        ToolFinder.Found found = finder.find(query, limit, WrappedPlugins.PLANNER_NAME).await().atMost(Duration.ofSeconds(10));
        long t1 = System.nanoTime();
        BriefLists.fit(found.tools(), budget, kept -> new MetaTools.Found(kept, found.tools().size() - kept.size(), budget));
        long t2 = System.nanoTime();
        run.finderMs.add((t1 - t0) / 1e6);
        run.fitMs.add((t2 - t1) / 1e6);
    }

    private void warmUp(McpClient mcp, List<BenchCatalog.Query> queries) throws Exception {
        for (int i = 0; i < Math.min(WARM_UP, queries.size()); i++) {
            mcp.callTool("find_tools", Map.of("query", queries.get(i).text(), "limit", limit, "token_budget", budget));
        }
    }

    /** Publishes every tool on plugin-built as an approved, verified build and waits until the registry serves all. */
    private void register(List<ToolManifest> tools) {
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            for (ToolManifest tool : tools) {
                kafka.send(Topics.PLUGIN_BUILT, tool.id(), TestApprovals.built(tool, UsagePolicy.unrestricted(), 1,
                        new VerificationReport(true, List.of(), 1)));
            }
        }
        Set<String> ids = tools.stream().map(ToolManifest::id).collect(Collectors.toSet());
        // Registration is about a hundred a second; a minute without one more means some were refused (the
        // plugin-built listener logs why and dead-letters them): say which, rather than wait for nothing.
        long registered = -1;
        long lastProgress = System.nanoTime();
        while (true) {
            Set<String> known = registry.all().stream().map(p -> p.toolId()).collect(Collectors.toSet());
            long now = ids.stream().filter(known::contains).count();
            if (now == ids.size()) {
                return;
            }
            if (now > registered) {
                registered = now;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > Duration.ofSeconds(60).toNanos()) {
                throw new IllegalStateException(registered + " of " + ids.size() + " tools registered; not: "
                        + ids.stream().filter(id -> !known.contains(id)).limit(5).toList() + " (see the log)");
            }
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while registering", e);
            }
        }
    }

    /**
     * Indexes the padding with random unit vectors of the model's size, as the librarian's search benchmark
     * does: embedding thousands of made-up texts would take minutes and does not change what a query costs.
     */
    private void pad(ToolIndex index, List<ToolVectors> real, List<ToolManifest> padding) {
        Random rnd = new Random(seed);
        ToolVectors model = real.get(0);
        List<ToolIndex.IndexedTool> batch = new ArrayList<>();
        for (ToolManifest tool : padding) {
            batch.add(new ToolIndex.IndexedTool(tool, new ToolVectors(model.modelId(), unit(rnd, model.tool().length),
                    model.title() == null ? null : unit(rnd, model.title().length)), null));
        }
        index.upsertAll(batch);
    }

    private static float[] unit(Random rnd, int dim) {
        float[] v = new float[dim];
        double norm = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) rnd.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < dim; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    /** A tool as a plain MCP server lists it: name, description, input schema (LoadedTools lists it so too). */
    private static Map<String, Object> listed(ToolManifest tool) {
        Map<String, Object> entry = new java.util.LinkedHashMap<>();
        entry.put("name", tool.verb());
        entry.put("description", tool.description() == null ? "" : tool.description());
        entry.put("inputSchema", tool.inputSchema() == null ? Map.of("type", "object") : tool.inputSchema());
        return entry;
    }

    /** Recall@5 as the retrieval benchmark counts it: the share of the gold tools among the first five. */
    private static double recall(List<String> ranked, Set<String> gold) {
        if (gold.isEmpty()) {
            return 0;
        }
        return (double) ranked.stream().limit(5).filter(gold::contains).count() / gold.size();
    }

    private static final class Run {
        final List<Double> latencyMs = new ArrayList<>();
        final List<Double> finderMs = new ArrayList<>();
        final List<Double> fitMs = new ArrayList<>();
        final List<Integer> entryTokens = new ArrayList<>();
        final List<Integer> findTokens = new ArrayList<>();
        final List<Integer> describeTokens = new ArrayList<>();
        double briefRecall;
        double fullRecall;
        int queries;
        int errors;

        ObjectNode json(int metaTokens, int listingTokens, List<Double> searchMs) {
            ObjectNode o = JSON.createObjectNode();
            double find = mean(findTokens);
            double describe = mean(describeTokens);
            double context = metaTokens + find + describe;
            o.put("answered", queries);
            o.put("errors", errors);
            o.put("find_tools_tokens_mean", round(find));
            o.put("describe_tool_tokens_mean", round(describe));
            o.put("tool_context_tokens_mean", round(context));
            if (listingTokens > 0) {
                o.put("tool_context_share_of_listing", round(context / listingTokens));
            }
            o.put("brief_entry_tokens_mean", round(mean(entryTokens)));
            o.put("recall@5_brief", round(briefRecall / Math.max(1, queries)));
            o.put("recall@5_full_search", round(fullRecall / Math.max(1, queries)));
            o.put("find_tools_p50_ms", round(percentile(latencyMs, 50)));
            o.put("find_tools_p99_ms", round(percentile(latencyMs, 99)));
            o.put("search_in_librarian_p50_ms", round(percentile(searchMs, 50)));
            o.put("search_in_librarian_p99_ms", round(percentile(searchMs, 99)));
            // stages, timed separately (docs/mcp.md): Kafka request/reply + search + filter, then the budgeted list
            o.put("stage_search_over_kafka_p50_ms", round(percentile(finderMs, 50)));
            o.put("stage_search_over_kafka_p99_ms", round(percentile(finderMs, 99)));
            o.put("stage_brief_list_fit_p50_ms", round(percentile(fitMs, 50)));
            o.put("stage_brief_list_fit_p99_ms", round(percentile(fitMs, 99)));
            return o;
        }
    }

    private static double mean(List<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).average().orElse(0);
    }

    private static double percentile(List<Double> values, int p) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private String required(String name) {
        String value = opts.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " FILE is required (mcp.bench.args)");
        }
        return value;
    }

    private static Map<String, String> options(String args) {
        Map<String, String> out = new HashMap<>();
        String[] words = args.strip().split("\\s+");
        for (int i = 0; i + 1 < words.length; i += 2) {
            if (!words[i].startsWith("--")) {
                throw new IllegalArgumentException("expected an --option, got " + words[i]);
            }
            out.put(words[i].substring(2), words[i + 1]);
        }
        return out;
    }

    private static void log(String format, Object... args) {
        System.err.printf("mcp-benchmark: " + format + "%n", args);
    }
}
