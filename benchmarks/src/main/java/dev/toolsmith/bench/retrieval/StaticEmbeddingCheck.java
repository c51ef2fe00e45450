package dev.toolsmith.bench.retrieval;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.IdentifierWords;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.ToolText;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import dev.toolsmith.search.sets.RetrievalSets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Experiment: how much of the dense stage's ranking a <em>static</em> embedding keeps. On a CPU without AVX-512
 * the two query embeddings are most of a search (bge-small-q alone 18 ms p50 on a 2-core AVX2 EPYC), so the latency
 * targets would need a dense stage that does not run a transformer per query. Here every word of the catalog and
 * the queries is embedded once, alone, by the shipped ensemble; a text's vector is the SIF-weighted mean of its
 * words' vectors (smooth inverse frequency, a / (a + p(word)), p from the tools' own texts), so a query costs a
 * split and a sum. The distilled table is built from the catalog's and the queries' words only, so this is the
 * best case of the idea (a shipped table would be built from a general vocabulary).
 *
 * <p>Prints, for the same queries, recall@1 / @5 of plain cosine ranking with the transformer vectors
 * (whole-tool passage against the query's embedding, as the index's dense stage does without its title vector)
 * and with the static vectors, and the time each takes to make a query vector.
 */
@Command(name = "static-embedding-check", mixinStandardHelpOptions = true)
public final class StaticEmbeddingCheck implements Callable<Integer> {

    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    private static final int BATCH = 256;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    CatalogOptions catalog;

    @Option(names = "--sif", defaultValue = "0.001", description = "a of the SIF weight a / (a + p(word))")
    double sif;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StaticEmbeddingCheck()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (!(sif > 0) || Double.isInfinite(sif)) { // NaN fails too
            throw new CommandLine.ParameterException(spec.commandLine(), "--sif " + sif + ": must be a positive number");
        }
        List<ToolManifest> tools = catalog.rawTools().stream().map(RetrievalSets::tool).toList();
        List<RetrievalSets.LabelledQuery> queries = catalog.queries();
        List<String> toolTexts = tools.stream().map(t -> ToolText.of(t).passage()).toList();
        List<String> queryTexts = queries.stream()
                .map(q -> RetrievalBenchmark.query(q, RetrievalMode.DENSE).matchText()).toList();
        Map<String, Double> probability = wordProbabilities(toolTexts);
        Set<String> vocabulary = new LinkedHashSet<>();
        toolTexts.forEach(t -> vocabulary.addAll(words(t)));
        queryTexts.forEach(t -> vocabulary.addAll(words(t)));
        try (TextEmbedder embedder = EnsembleTextEmbedder.defaultEnsemble()) {
            long t0 = System.nanoTime();
            Map<String, float[]> table = wordTable(embedder, new ArrayList<>(vocabulary));
            RetrievalBenchmark.log("%d tools, %d queries; %d words embedded in %d ms", tools.size(), queries.size(),
                    table.size(), (System.nanoTime() - t0) / 1_000_000);

            List<float[]> transformerTools = embedder.embedPassages(toolTexts);
            List<float[]> staticTools = toolTexts.stream().map(t -> staticVector(t, table, probability,
                    embedder.dimension())).toList();
            long transformerNanos = 0;
            long staticNanos = 0;
            double[] transformerRecall = new double[2];
            double[] staticRecall = new double[2];
            for (int i = 0; i < queries.size(); i++) {
                Set<String> gold = new HashSet<>(queries.get(i).gold());
                long a = System.nanoTime();
                float[] q = embedder.embedQuery(queryTexts.get(i));
                long b = System.nanoTime();
                float[] s = staticVector(queryTexts.get(i), table, probability, embedder.dimension());
                long c = System.nanoTime();
                transformerNanos += b - a;
                staticNanos += c - b;
                add(transformerRecall, ranked(q, transformerTools, tools), gold);
                add(staticRecall, ranked(s, staticTools, tools), gold);
            }
            int n = Math.max(1, queries.size());
            System.out.printf(Locale.ROOT, "{\"tools\":%d,\"queries\":%d,\"words\":%d,\"sif\":%s,"
                            + "\"transformer\":{\"recall@1\":%.4f,\"recall@5\":%.4f,\"query_mean_ms\":%.3f},"
                            + "\"static\":{\"recall@1\":%.4f,\"recall@5\":%.4f,\"query_mean_ms\":%.4f}}%n",
                    tools.size(), queries.size(), table.size(), sif, transformerRecall[0] / n, transformerRecall[1] / n,
                    transformerNanos / 1e6 / n, staticRecall[0] / n, staticRecall[1] / n, staticNanos / 1e6 / n);
        }
        return 0;
    }

    /** Lower-cased words of a text, identifiers split, English stop words left out. */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : NOT_WORD.split(IdentifierWords.split(text, false).toLowerCase(Locale.ROOT))) {
            if (!w.isEmpty() && !EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static Map<String, Double> wordProbabilities(List<String> texts) {
        Map<String, Integer> counts = new HashMap<>();
        long total = 0;
        for (String text : texts) {
            for (String w : words(text)) {
                counts.merge(w, 1, Integer::sum);
                total++;
            }
        }
        Map<String, Double> p = new HashMap<>();
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            p.put(e.getKey(), e.getValue() / (double) Math.max(1, total));
        }
        return p;
    }

    private static Map<String, float[]> wordTable(TextEmbedder embedder, List<String> vocabulary) {
        Map<String, float[]> table = new HashMap<>();
        for (int from = 0; from < vocabulary.size(); from += BATCH) {
            List<String> batch = vocabulary.subList(from, Math.min(vocabulary.size(), from + BATCH));
            List<float[]> vectors = embedder.embedPassages(batch);
            for (int i = 0; i < batch.size(); i++) {
                table.put(batch.get(i), vectors.get(i));
            }
        }
        return table;
    }

    private float[] staticVector(String text, Map<String, float[]> table, Map<String, Double> probability, int dim) {
        float[] sum = new float[dim];
        for (String w : words(text)) {
            float[] v = table.get(w);
            if (v == null) {
                continue;
            }
            float weight = (float) (sif / (sif + probability.getOrDefault(w, 0.0)));
            for (int d = 0; d < dim; d++) {
                sum[d] += weight * v[d];
            }
        }
        double norm = 0;
        for (float x : sum) {
            norm += x * x;
        }
        float scale = norm == 0 ? 0 : (float) (1 / Math.sqrt(norm));
        for (int d = 0; d < dim; d++) {
            sum[d] *= scale;
        }
        return sum;
    }

    /** Tool ids by descending cosine, the best five. */
    private static List<String> ranked(float[] query, List<float[]> toolVectors, List<ToolManifest> tools) {
        int[] best = new int[5];
        double[] bestScore = new double[5];
        java.util.Arrays.fill(bestScore, Double.NEGATIVE_INFINITY);
        for (int t = 0; t < toolVectors.size(); t++) {
            float[] v = toolVectors.get(t);
            double dot = 0;
            for (int d = 0; d < v.length; d++) {
                dot += query[d] * v[d];
            }
            for (int k = 0; k < 5; k++) {
                if (dot > bestScore[k]) {
                    System.arraycopy(bestScore, k, bestScore, k + 1, 4 - k);
                    System.arraycopy(best, k, best, k + 1, 4 - k);
                    bestScore[k] = dot;
                    best[k] = t;
                    break;
                }
            }
        }
        List<String> ids = new ArrayList<>(5);
        for (int k = 0; k < Math.min(5, toolVectors.size()); k++) {
            ids.add(tools.get(best[k]).id());
        }
        return ids;
    }

    private static void add(double[] recall, List<String> top, Set<String> gold) {
        if (gold.isEmpty()) {
            return;
        }
        long at1 = top.stream().limit(1).filter(gold::contains).count();
        long at5 = top.stream().filter(gold::contains).count();
        // as RetrievalBenchmark counts it: the share of the right tools found in the top k
        recall[0] += at1 / (double) gold.size();
        recall[1] += at5 / (double) gold.size();
    }
}
