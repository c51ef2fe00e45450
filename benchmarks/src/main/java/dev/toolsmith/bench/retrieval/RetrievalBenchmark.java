package dev.toolsmith.bench.retrieval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.SearchDefaults;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.StepConfidence;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.embed.EmbeddingModelChoice;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.OnnxTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import dev.toolsmith.search.sets.RetrievalSets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Retrieval benchmark: indexes a tools.jsonl, runs its labelled queries through {@link ToolIndex#search}
 * (the code the librarian serves) in the modes bm25, dense and hybrid, and prints one JSON object as the
 * last line of stdout.
 *
 * <pre>
 * java -Xmx2g -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED -Djava.io.tmpdir=benchmarks/target/scratch \
 *   -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) dev.toolsmith.bench.retrieval.RetrievalBenchmark \
 *   --tools FILE --queries FILE [--out FILE] [--scale N] [--sample N] [--model ensemble|bge|minilm] [--seed S]
 * </pre>
 *
 * {@code --sample N} runs a fixed seeded sample (seed 42 unless {@code --seed}); {@code --scale N} pads the
 * catalog with distinct synthetic tools up to N (quality is still measured on the real queries). -Xmx1g
 * is enough up to 10,000 tools, use -Xmx2g for 100,000. The default model is the production ensemble
 * (all-MiniLM-L6-v2 + bge-small-en-v1.5-q); {@code --model bge|minilm} measures one alone. {@code --dump PREFIX} writes,
 * per mode, {@code PREFIX-<mode>.tsv}: for each query whether the top hit was right and its confidence features
 * (input of {@link ConfidenceFit}). {@code --modes hybrid,bm25} runs only some modes; {@code --vectors FILE}
 * caches tool vectors between runs. Every run also prints {@code peers.bm25_identifiers}, the identifier-splitting
 * BM25 peer row ({@link IdentifierBm25}; {@code --peers false} skips it). A queries file whose lines carry
 * {@code verb} and {@code inputs} (the step-shaped sets, {@link StepSetGenerator}) is sent as plan steps and
 * also reports {@code inputs_mapped_top1} / {@code inputs_mapped_at_threshold}. Plan steps go through the
 * cascade ({@link ToolIndex#ToolIndex(dev.toolsmith.search.embed.TextEmbedder, boolean)}): each mode reports
 * {@code lexical_only_share}, the share of queries answered from BM25 alone without embedding the query, and the
 * latency of those and of the embedded ones apart; {@code --cascade false} embeds every query.
 */
@Command(name = "RetrievalBenchmark", mixinStandardHelpOptions = true,
        description = "Retrieval quality and latency of ToolIndex.search on a labelled tool set.")
public final class RetrievalBenchmark implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** BM25-mode searches before the timed runs, so that Lucene's scoring is compiled (see the warm-up). */
    static final int LEXICAL_WARM_UP = 3_000;

    @Spec
    CommandSpec spec;
    @Mixin
    CatalogOptions catalog;
    @Option(names = "--out", description = "also write the result line to this file")
    Path outFile;
    @Option(names = "--model", defaultValue = "ensemble",
            description = "ensemble, one model id or a pair id1+id2 (EmbeddingModelChoice ids)")
    String model;
    @Option(names = "--cascade", arity = "1", defaultValue = "true", description = "true or false")
    boolean cascade;
    @Option(names = "--step-confidence", defaultValue = "standard", paramLabel = "standard|cautious",
            converter = StepConfidenceConverter.class,
            description = "the step models behind a plan step's confidence (the librarian's toolsmith.search.step-confidence)")
    StepConfidence stepConfidence;
    @Option(names = "--modes", description = "comma-separated: hybrid,bm25,dense (default all three)")
    String modesOption;
    @Option(names = "--dump", description = "write PREFIX-<mode>.tsv: top hit right and its confidence features;"
            + " PREFIX-<mode>-hits.tsv beside it: query id, top tool id, confidence, answered by BM25 alone")
    String dumpPrefix;
    @Option(names = "--peers", arity = "1", defaultValue = "true", description = "run the identifier BM25 peer row")
    boolean peers;
    @Option(names = "--without-gold", arity = "1", defaultValue = "false",
            description = "hide each query's right tools from it: every confident answer is then a wrong substitution")
    boolean withoutGold;
    @Option(names = "--contract-confirmed", defaultValue = "0.5", paramLabel = "C",
            description = "the cut of the capabilities manager's contract-confirmed rule, as a deployment that switches it "
                    + "on sets it (toolsmith.substitution.contract-confirmed-threshold; the service's default, 1, turns "
                    + "the rule off): contract_confirmed_* count the steps below 0.95 but at least C whose inputs are "
                    + "exactly the top tool's parameters, which the rule would substitute too")
    double contractConfirmed;
    @Option(names = "--dump-candidates", paramLabel = "FILE",
            description = "write each query's best fused candidates with their reranking features (RerankFit's input)")
    Path candidatesFile;
    @Option(names = "--twins-right", arity = "1", defaultValue = "false",
            description = "count a tool with a right tool's name, description and parameter names as right too"
                    + " (a catalog that holds one API in several versions)")
    boolean twinsRight;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RetrievalBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (withoutGold && candidatesFile != null) {
            // the reranker is fitted on which candidate is right; with the right tools hidden there is none
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--without-gold true and --dump-candidates do not go together: a candidate dump needs the right tools");
        }
        if (!(contractConfirmed > 0 && contractConfirmed <= 1)) { // NaN fails too
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--contract-confirmed " + contractConfirmed + ": a confidence in (0, 1] (1: the rule is off)");
        }
        List<com.fasterxml.jackson.databind.JsonNode> rawTools = catalog.rawTools();
        List<ToolManifest> tools = rawTools.stream().map(RetrievalSets::tool).toList();
        List<RetrievalSets.LabelledQuery> queries = twinsRight
                ? ToolTwins.asGold(rawTools, catalog.queries()) : catalog.queries();
        try (TextEmbedder embedder = embedder(model); ToolIndex index = new ToolIndex(embedder, cascade, stepConfidence)) {
            log("%d tools, %d queries, model %s", tools.size(), queries.size(), embedder.modelId());
            long t0 = System.nanoTime();
            catalog.fill(index, tools);
            long indexMs = (System.nanoTime() - t0) / 1_000_000;
            log("indexed %d tools in %d ms", index.size(), indexMs);

            // Warm up the JIT and ONNX so the measured queries see a long-running service's steady state: 200 hybrid
            // searches, then LEXICAL_WARM_UP BM25-mode ones, which cost a millisecond each. The lexical search reaches
            // its steady state only after some thousands of searches (the JIT, most likely: the same queries again
            // were still slow after 1,000, fast after 2,000), and after the 200 alone the timed run still paid for
            // it (MetaTool at 10,000 tools: p99 24–25 ms, against 18–22 warm; docs/benchmarks.md).
            for (int i = 0; i < Math.min(200, queries.size()); i++) {
                index.search(query(queries.get(i), RetrievalMode.HYBRID));
            }
            for (int i = 0; i < LEXICAL_WARM_UP && !queries.isEmpty(); i++) {
                index.search(query(queries.get(i % queries.size()), RetrievalMode.BM25));
            }

            ObjectNode modes = JSON.createObjectNode();

            List<RetrievalMode> runModes = new ArrayList<>();
            for (String m : (modesOption != null ? modesOption : "hybrid,bm25,dense").split(",")) {
                runModes.add(RetrievalMode.valueOf(m.strip().toUpperCase(Locale.ROOT)));
            }
            Map<String, ToolManifest> byId = new java.util.HashMap<>();
            tools.forEach(t -> byId.put(t.id(), t));
            for (RetrievalMode mode : runModes) {
                List<String> dump = dumpPrefix != null ? new ArrayList<>() : null;
                List<String> dumpHits = dumpPrefix != null ? new ArrayList<>() : null;
                String modeName = mode.name().toLowerCase(Locale.ROOT);
                modes.set(modeName, run(index, queries, mode, dump, dumpHits, byId, withoutGold, contractConfirmed));
                if (dump != null) {
                    Files.write(Path.of(dumpPrefix + "-" + modeName + ".tsv"), dump, StandardCharsets.UTF_8);
                    Files.write(Path.of(dumpPrefix + "-" + modeName + "-hits.tsv"), dumpHits, StandardCharsets.UTF_8);
                }
            }
            if (candidatesFile != null) {
                dumpCandidates(index, queries, candidatesFile);
            }
            System.gc();
            Runtime rt = Runtime.getRuntime();
            long heapMb = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
            logResidentMemory();

            ObjectNode out = JSON.createObjectNode();
            out.put("tools", index.size());
            out.put("queries", queries.size());
            out.put("cascade", cascade);
            out.put("step_confidence", stepConfidence.value());
            out.set("modes", modes);
            if (peers && catalog.scale <= tools.size()) {
                ObjectNode peers = out.putObject("peers");
                try (IdentifierBm25 peer = new IdentifierBm25(rawTools)) {
                    peers.set("bm25_identifiers", runPeer(peer, queries));
                }
            }
            out.put("index_ms", indexMs);
            out.put("heap_mb", heapMb);
            String line = JSON.writeValueAsString(out);
            if (outFile != null) {
                Files.writeString(outFile, line + "\n", StandardCharsets.UTF_8);
            }
            System.out.println(line);
        }
        return 0;
    }

    /**
     * The production ensemble unless {@code --model} names one model ({@code bge-small-en-v1.5-q}) or a
     * pair ({@code all-minilm-l6-v2+bge-small-en-v1.5-q}) by {@link EmbeddingModelChoice#id()}.
     */
    private static TextEmbedder embedder(String model) {
        if (model.equals("ensemble")) {
            return EnsembleTextEmbedder.defaultEnsemble();
        }
        String[] ids = model.split("\\+");
        if (ids.length == 1) {
            return OnnxTextEmbedder.create(EmbeddingModelChoice.byId(ids[0]));
        }
        return new EnsembleTextEmbedder(OnnxTextEmbedder.create(EmbeddingModelChoice.byId(ids[0])),
                OnnxTextEmbedder.create(EmbeddingModelChoice.byId(ids[1])));
    }

    /**
     * The query as its caller would send it: free text as is; a plan step the way the capabilities
     * manager's novel-verb path does (the verb in words plus the description as text, the verb, and the
     * input names as context entities).
     */
    static ToolQuery query(RetrievalSets.LabelledQuery q, RetrievalMode mode) {
        if (q.verb() == null) {
            return new ToolQuery(q.text(), null, null, null, null, SearchDefaults.CANDIDATES, mode);
        }
        String verbWords = dev.toolsmith.contracts.tool.VerbNormalizer.normalize(q.verb());
        String text = q.text() == null || q.text().isBlank() ? verbWords : verbWords + " " + q.text().strip();
        return new ToolQuery(text, q.verb(), q.inputs(), null, null, SearchDefaults.CANDIDATES, mode);
    }

    /**
     * {@code #queries N}, then one line per candidate: query number, how many right tools the query has, whether
     * this one is right (1/0), its fused score and its reranking features.
     */
    private static void dumpCandidates(ToolIndex index, List<RetrievalSets.LabelledQuery> queries, Path file)
            throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("#queries\t" + queries.size());
        for (int qi = 0; qi < queries.size(); qi++) {
            RetrievalSets.LabelledQuery q = queries.get(qi);
            Set<String> gold = new HashSet<>(q.gold());
            for (ToolIndex.CandidateEvidence c : index.rerankingEvidence(query(q, RetrievalMode.HYBRID))) {
                StringBuilder line = new StringBuilder().append(qi).append('\t').append(gold.size()).append('\t')
                        .append(gold.contains(c.toolId()) ? 1 : 0).append('\t').append(c.fused());
                for (double f : c.features()) {
                    line.append('\t').append(f);
                }
                lines.add(line.toString());
            }
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        log("wrote the candidates of %d queries to %s", queries.size(), file);
    }

    /** The peer row: recall, NDCG and MRR of {@link IdentifierBm25} (it has no confidence). */
    private static ObjectNode runPeer(IdentifierBm25 peer, List<RetrievalSets.LabelledQuery> queries) throws IOException {
        double r1 = 0;
        double r5 = 0;
        double ndcg = 0;
        double mrr = 0;
        for (RetrievalSets.LabelledQuery q : queries) {
            List<String> ids = peer.search(q.flatText(), SearchDefaults.CANDIDATES);
            List<SearchHit> hits = new ArrayList<>(ids.size());
            for (String id : ids) {
                hits.add(new SearchHit(id, null, null, null, 0, 0, List.of(), null, 1));
            }
            Set<String> gold = new HashSet<>(q.gold());
            r1 += recall(hits, gold, 1);
            r5 += recall(hits, gold, 5);
            ndcg += ndcg(hits, gold, 10);
            for (int i = 0; i < hits.size(); i++) {
                if (gold.contains(hits.get(i).toolId())) {
                    mrr += 1.0 / (i + 1);
                    break;
                }
            }
        }
        int n = Math.max(1, queries.size());
        ObjectNode m = JSON.createObjectNode();
        m.put("recall@1", round(r1 / n));
        m.put("recall@5", round(r5 / n));
        m.put("ndcg@10", round(ndcg / n));
        m.put("mrr", round(mrr / n));
        log("peer bm25_identifiers: %s", m);
        return m;
    }

    private static ObjectNode run(ToolIndex index, List<RetrievalSets.LabelledQuery> queries, RetrievalMode mode,
            List<String> dump, List<String> dumpHits, Map<String, ToolManifest> tools, boolean withoutGold,
            double contractConfirmed) {
        int steps = 0;
        int confirmedByInputs = 0;
        int confirmedByInputsRight = 0;
        int stepsMapped = 0;
        int clearedMapped = 0;
        int clearedAutomatic = 0;
        double r1 = 0;
        double r5 = 0;
        double ndcg = 0;
        double mrr = 0;
        int cleared = 0;
        int clearedRight = 0;
        long[] nanos = new long[queries.size()];
        boolean[] lexicalOnly = new boolean[queries.size()];
        double[] topConfidence = new double[queries.size()];
        boolean[] topRight = new boolean[queries.size()];
        for (int qi = 0; qi < queries.size(); qi++) {
            RetrievalSets.LabelledQuery q = queries.get(qi);
            long t = System.nanoTime();
            // --without-gold: the catalog lacks the step's tool, as a deployment lacks most verbs a planner asks for
            ToolQuery asked = withoutGold ? query(q, mode).withAllowed(tool -> !q.gold().contains(tool.id())) : query(q, mode);
            SearchResult result = index.search(asked);
            nanos[qi] = System.nanoTime() - t;
            lexicalOnly[qi] = result.lexicalOnly();
            Set<String> gold = new HashSet<>(q.gold());
            List<SearchHit> hits = result.hits();
            r1 += recall(hits, gold, 1);
            r5 += recall(hits, gold, 5);
            ndcg += ndcg(hits, gold, 10);
            for (int i = 0; i < hits.size(); i++) {
                if (gold.contains(hits.get(i).toolId())) {
                    mrr += 1.0 / (i + 1);
                    break;
                }
            }
            boolean right = !hits.isEmpty() && gold.contains(hits.get(0).toolId());
            topConfidence[qi] = hits.isEmpty() ? 0 : hits.get(0).confidence();
            topRight[qi] = right;
            boolean mapped = false;
            if (q.verb() != null && !q.inputs().isEmpty()) {
                steps++;
                ToolManifest top = hits.isEmpty() ? null : tools.get(hits.get(0).toolId());
                mapped = top != null
                        && dev.toolsmith.search.InputOverlap.share(q.inputs(),
                                dev.toolsmith.search.InputOverlap.parameterNames(top.inputSchema())) == 1.0;
                stepsMapped += mapped ? 1 : 0;
            }
            if (!result.confident() && !hits.isEmpty() && topConfidence[qi] >= contractConfirmed && q.inputs().size() >= 2
                    && exactContract(q.inputs(), tools.get(hits.get(0).toolId()))) {
                // NovelVerbResolver's second way in: under the threshold, but the step's inputs are the tool's contract
                confirmedByInputs++;
                confirmedByInputsRight += right ? 1 : 0;
            }
            if (result.confident()) {
                cleared++;
                clearedMapped += mapped ? 1 : 0;
                clearedAutomatic += q.verb() != null && automatic(tools.get(hits.get(0).toolId()), q.inputs()) ? 1 : 0;
                if (right) {
                    clearedRight++;
                }
            }
            if (dump != null) {
                StringBuilder line = new StringBuilder().append(right ? 1 : 0);
                for (double f : result.confidenceFeatures()) {
                    line.append('\t').append(f);
                }
                dump.add(line.toString());
                // row for row beside the features: which query, which top hit, so a row can be looked up
                dumpHits.add(cell(q.id()) + "\t" + (hits.isEmpty() ? "" : cell(hits.get(0).toolId())) + "\t"
                        + topConfidence[qi] + "\t" + result.lexicalOnly());
            }
        }
        int n = Math.max(1, queries.size());
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        ObjectNode m = JSON.createObjectNode();
        m.put("recall@1", round(r1 / n));
        m.put("recall@5", round(r5 / n));
        m.put("ndcg@10", round(ndcg / n));
        m.put("mrr", round(mrr / n));
        m.put("p50_ms", round(percentile(sorted, 0.50) / 1e6));
        m.put("p99_ms", round(percentile(sorted, 0.99) / 1e6));
        cascadeShares(m, nanos, lexicalOnly);
        m.put("precision_at_threshold", cleared == 0 ? 0.0 : round((double) clearedRight / cleared));
        m.put("coverage_at_threshold", round((double) cleared / n));
        m.set("reliability", reliability(topConfidence, topRight));
        if (steps > 0) {
            // plan steps: how often every input of the step can be fed to a parameter of the chosen tool
            m.put("inputs_mapped_top1", round((double) stepsMapped / steps));
            m.put("inputs_mapped_at_threshold", cleared == 0 ? 0.0 : round((double) clearedMapped / cleared));
            // of all steps, the share the capabilities manager would run at once: confident, read-only, every
            // required parameter fed (writing tools are only proposed, and a step lacking a required input is not run)
            m.put("automatic_at_threshold", round((double) clearedAutomatic / n));
            // the contract-confirmed rule's own substitutions (InputOverlap standing in for InputMapper's exact match)
            m.put("contract_confirmed_share", round((double) confirmedByInputs / n));
            m.put("contract_confirmed_precision",
                    confirmedByInputs == 0 ? 0.0 : round((double) confirmedByInputsRight / confirmedByInputs));
        }
        log("%s: %s", mode, m);
        return m;
    }

    /**
     * Whether the step's inputs are exactly the tool's contract, as the capabilities manager's contract-confirmed rule
     * asks (InputMapper's by-name tiers): each input names a distinct parameter (the same name once case and separators
     * are dropped, or the same words once plurals and everyday synonyms are folded), and the tool would run
     * ({@link #automatic}). A little looser than InputMapper, which folds no plurals, so an upper bound of the rule.
     */
    private static boolean exactContract(List<String> inputs, ToolManifest tool) {
        if (!automatic(tool, inputs)) {
            return false;
        }
        List<String> parameters = dev.toolsmith.search.InputOverlap.parameterNames(tool.inputSchema());
        boolean[] used = new boolean[parameters.size()];
        for (String input : inputs) {
            boolean named = false;
            for (int i = 0; i < parameters.size() && !named; i++) {
                String parameter = parameters.get(i);
                if (!used[i] && (squash(input).equals(squash(parameter)) || dev.toolsmith.search.InputOverlap.words(input)
                        .equals(dev.toolsmith.search.InputOverlap.words(parameter)))) {
                    used[i] = true;
                    named = true;
                }
            }
            if (!named) {
                return false;
            }
        }
        return true;
    }

    private static String squash(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    /** Whether the capabilities manager would run this tool for these inputs without asking: read-only, nothing required unfed. */
    private static boolean automatic(ToolManifest tool, List<String> inputs) {
        return tool != null && (tool.risk() == null || tool.risk() == dev.toolsmith.contracts.tool.Risk.READ_ONLY)
                && dev.toolsmith.search.InputOverlap.unfedRequired(inputs, tool.inputSchema()) == 0;
    }

    /**
     * The cascade's part: the share of queries answered from BM25 alone without embedding the query
     * ({@code lexical_only_share}) and the latency of those and of the embedded ones apart.
     */
    private static void cascadeShares(ObjectNode m, long[] nanos, boolean[] lexicalOnly) {
        List<Long> skipped = new ArrayList<>();
        List<Long> embedded = new ArrayList<>();
        for (int i = 0; i < nanos.length; i++) {
            (lexicalOnly[i] ? skipped : embedded).add(nanos[i]);
        }
        m.put("lexical_only_share", round((double) skipped.size() / Math.max(1, nanos.length)));
        long[] s = skipped.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] e = embedded.stream().mapToLong(Long::longValue).sorted().toArray();
        m.put("lexical_only_p50_ms", round(percentile(s, 0.50) / 1e6));
        m.put("lexical_only_p99_ms", round(percentile(s, 0.99) / 1e6));
        m.put("embedded_p50_ms", round(percentile(e, 0.50) / 1e6));
        m.put("embedded_p99_ms", round(percentile(e, 0.99) / 1e6));
    }

    /**
     * Precision and coverage of the top hit at several confidence cuts, not only the default threshold:
     * what a lower cut (such as the capabilities manager's contract-confirmed one) would let through.
     */
    private static ObjectNode reliability(double[] topConfidence, boolean[] topRight) {
        ObjectNode table = JSON.createObjectNode();
        for (double cut : new double[] {0.3, 0.5, 0.7, 0.9, 0.95}) {
            int cleared = 0;
            int right = 0;
            for (int i = 0; i < topConfidence.length; i++) {
                if (topConfidence[i] >= cut) {
                    cleared++;
                    right += topRight[i] ? 1 : 0;
                }
            }
            table.putObject(String.valueOf(cut))
                    .put("precision", cleared == 0 ? 0.0 : round((double) right / cleared))
                    .put("coverage", round((double) cleared / Math.max(1, topConfidence.length)));
        }
        return table;
    }

    static double recall(List<SearchHit> hits, Set<String> gold, int k) {
        if (gold.isEmpty()) {
            return 0;
        }
        int found = 0;
        for (int i = 0; i < Math.min(k, hits.size()); i++) {
            if (gold.contains(hits.get(i).toolId())) {
                found++;
            }
        }
        return (double) found / gold.size();
    }

    static double ndcg(List<SearchHit> hits, Set<String> gold, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, hits.size()); i++) {
            if (gold.contains(hits.get(i).toolId())) {
                dcg += 1 / (Math.log(i + 2) / Math.log(2));
            }
        }
        double ideal = 0;
        for (int i = 0; i < Math.min(k, gold.size()); i++) {
            ideal += 1 / (Math.log(i + 2) / Math.log(2));
        }
        return ideal == 0 ? 0 : dcg / ideal;
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double round(double v) {
        return Math.round(v * 10_000.0) / 10_000.0;
    }

    /** Linux only: the process's resident set now and at its peak (heap + ONNX models + native buffers). */
    private static void logResidentMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS") || line.startsWith("VmHWM")) {
                    log("%s", line.replaceAll("\\s+", " "));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not on Linux: nothing to report
        }
    }

    /** An id as one TSV cell: a tab or line break in it (ids come from the data set) would shift every later column. */
    static String cell(String id) {
        return id.replaceAll("[\\t\\r\\n]", " ");
    }

    static void log(String format, Object... args) {
        System.err.printf(format + "%n", args);
    }

    /** {@code --step-confidence}: a value {@link StepConfidence#parse} refuses is a usage error naming the option. */
    static final class StepConfidenceConverter implements CommandLine.ITypeConverter<StepConfidence> {
        @Override
        public StepConfidence convert(String value) {
            try {
                return StepConfidence.parse("--step-confidence", value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
