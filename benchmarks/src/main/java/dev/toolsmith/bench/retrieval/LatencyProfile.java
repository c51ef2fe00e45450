package dev.toolsmith.bench.retrieval;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.embed.CachingTextEmbedder;
import dev.toolsmith.search.embed.EmbeddingModelChoice;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.OnnxTextEmbedder;
import dev.toolsmith.search.sets.RetrievalSets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where one search's time goes, from outside the product (no timers in its hot path): each part is timed on
 * its own over the same sampled queries, one after the other, so the parts add up only roughly (the
 * ensemble overlaps MiniLM with bge and the first pass with bge).
 *
 * <ul>
 *   <li>{@code minilm}, {@code bge}: one model's query embedding (tokenise + ONNX + pooling), alone;</li>
 *   <li>{@code ensemble}: both, as a search runs them (bge on a helper thread);</li>
 *   <li>{@code bm25}: a BM25-mode search (terms, Lucene, ranking, confidence of the hits);</li>
 *   <li>{@code hybrid_cached}: a hybrid search whose query vector is already cached, i.e. everything but the
 *       embedding (dense first pass, BM25, statistics, fusion, re-scoring, confidence);</li>
 *   <li>{@code hybrid}: the whole search, embedding included.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) dev.toolsmith.bench.retrieval.LatencyProfile \
 *   --tools $R/metatool/tools.jsonl --queries $R/metatool/queries.jsonl --sample 1000 --scale 10000
 * </pre>
 */
@Command(name = "latency-profile", mixinStandardHelpOptions = true,
        description = "Times the parts of one hybrid search separately.")
public final class LatencyProfile implements Callable<Integer> {

    @Mixin
    CatalogOptions catalog;
    @Option(names = "--embed-only", description = "time the query embeddings only (no index)")
    boolean embedOnly;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LatencyProfile()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<ToolManifest> realTools = catalog.rawTools().stream().map(RetrievalSets::tool).toList();
        List<RetrievalSets.LabelledQuery> qs = catalog.queries();
        OnnxTextEmbedder minilm = OnnxTextEmbedder.create(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q);
        OnnxTextEmbedder bge = OnnxTextEmbedder.create(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q);
        EnsembleTextEmbedder ensemble = new EnsembleTextEmbedder(minilm, bge);
        CachingTextEmbedder cached = new CachingTextEmbedder(ensemble, 1_000_000);
        if (embedOnly) {
            List<String> texts = qs.stream().map(q -> RetrievalBenchmark.query(q, RetrievalMode.HYBRID).matchText()).toList();
            for (int i = 0; i < Math.min(100, texts.size()); i++) {
                ensemble.embedQuery(texts.get(i));
            }
            report("minilm", time(texts.size(), i -> minilm.embedQuery(texts.get(i))));
            report("bge", time(texts.size(), i -> bge.embedQuery(texts.get(i))));
            report("ensemble", time(texts.size(), i -> ensemble.embedQuery(texts.get(i))));
            ensemble.close();
            return 0;
        }
        try (ToolIndex index = new ToolIndex(cached)) {
            catalog.fill(index, realTools);
            RetrievalBenchmark.log("%d tools, %d queries", index.size(), qs.size());
            List<String> texts = qs.stream().map(q -> RetrievalBenchmark.query(q, RetrievalMode.HYBRID).matchText()).toList();
            // warm-up: JIT and ONNX arenas, for every part timed below, as RetrievalBenchmark's (the lexical search is
            // at its steady state only after some thousands of searches: without them the "bm25" row had p90 5–7 ms,
            // with them 1.1–1.3).
            // The searches use other texts than the timed ones: the same texts would sit in the query cache, and the
            // "hybrid" row would not embed them.
            for (int i = 0; i < Math.min(100, qs.size()); i++) {
                minilm.embedQuery(texts.get(i));
                bge.embedQuery(texts.get(i));
                index.search(RetrievalBenchmark.query(warmUpVariant(qs.get(i)), RetrievalMode.HYBRID));
            }
            for (int i = 0; i < RetrievalBenchmark.LEXICAL_WARM_UP && !qs.isEmpty(); i++) {
                index.search(RetrievalBenchmark.query(warmUpVariant(qs.get(i % qs.size())), RetrievalMode.BM25));
            }
            report("minilm", time(texts.size(), i -> minilm.embedQuery(texts.get(i))));
            report("bge", time(texts.size(), i -> bge.embedQuery(texts.get(i))));
            report("ensemble", time(texts.size(), i -> ensemble.embedQuery(texts.get(i))));
            final List<RetrievalSets.LabelledQuery> fq = qs;
            report("bm25", time(fq.size(), i -> index.search(RetrievalBenchmark.query(fq.get(i), RetrievalMode.BM25))));
            // fills the cache, then measures with it: the search without its embedding
            report("hybrid", time(fq.size(), i -> index.search(RetrievalBenchmark.query(fq.get(i), RetrievalMode.HYBRID))));
            report("hybrid_cached", time(fq.size(), i -> index.search(RetrievalBenchmark.query(fq.get(i), RetrievalMode.HYBRID))));
        }
        return 0;
    }

    /** The query with a word added to its text, so its embedding is not the timed query's cached one. */
    private static RetrievalSets.LabelledQuery warmUpVariant(RetrievalSets.LabelledQuery q) {
        String text = q.text() == null ? "warm up" : q.text() + " warm up";
        return new RetrievalSets.LabelledQuery(q.id(), text, q.verb(), q.inputs(), q.gold());
    }

    private interface Part {
        void run(int i);
    }

    private static long[] time(int n, Part part) {
        long[] nanos = new long[n];
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            part.run(i);
            nanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(nanos);
        return nanos;
    }

    private static void report(String part, long[] sorted) {
        double mean = Arrays.stream(sorted).average().orElse(0) / 1e6;
        System.out.printf("%-14s p50 %6.2f  p90 %6.2f  p99 %6.2f  mean %6.2f ms%n", part, pct(sorted, 0.5), pct(sorted, 0.9),
                pct(sorted, 0.99), mean);
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
