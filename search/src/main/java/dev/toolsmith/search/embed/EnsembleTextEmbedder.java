package dev.toolsmith.search.embed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Two sentence encoders side by side: the vector is the concatenation of each model's unit vector,
 * scaled by 1/√2, so a dot product is the mean of the two cosines. Two differently trained models make
 * different mistakes; on the shared evaluation sets their average beats either alone (docs/search.md).
 * The first model's half (the first {@link #primaryDimension()} components, scaled) serves the cheap
 * first-pass scan over the whole catalog. Thread-safe.
 */
public final class EnsembleTextEmbedder implements TextEmbedder, AutoCloseable {

    private static final float HALF = (float) (1 / Math.sqrt(2));
    private static final ExecutorService QUERY_HELPERS = Executors.newFixedThreadPool(
            Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "ensemble-query");
                t.setDaemon(true);
                return t;
            });

    private final OnnxTextEmbedder first;
    private final OnnxTextEmbedder second;

    public EnsembleTextEmbedder(OnnxTextEmbedder first, OnnxTextEmbedder second) {
        this.first = first;
        this.second = second;
    }

    /** all-MiniLM-L6-v2 (int8) then bge-small-en-v1.5-q: the production setting (docs/search.md). */
    public static EnsembleTextEmbedder defaultEnsemble() {
        return new EnsembleTextEmbedder(OnnxTextEmbedder.create(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q),
                OnnxTextEmbedder.create(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q));
    }

    @Override
    public String modelId() {
        return first.modelId() + "+" + second.modelId();
    }

    @Override
    public int dimension() {
        return first.dimension() + second.dimension();
    }

    @Override
    public int primaryDimension() {
        return first.dimension();
    }

    /** The two models run at once, one on the caller's thread, so a query costs the slower model, not both. */
    @Override
    public float[] embedQuery(String text) {
        return startQuery(text).full();
    }

    /**
     * Returns once the first model is done, with its (scaled) half as the primary part; the second model
     * runs meanwhile on a helper thread. Put the faster model first (MiniLM-q: 2.4 ms against bge-q's 6 ms),
     * so the caller has the most time for the work that needs only the first half.
     */
    @Override
    public QueryEmbedding startQuery(String text) {
        CompletableFuture<float[]> b = CompletableFuture.supplyAsync(() -> second.embedQuery(text), QUERY_HELPERS);
        float[] a = scaled(first.embedQuery(text));
        return new QueryEmbedding(a, b.thenApply(bv -> concat(a, scaled(bv))));
    }

    @Override
    public float[] embedPassage(String text) {
        return join(first.embedPassage(text), second.embedPassage(text));
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
        List<float[]> a = first.embedPassages(texts);
        List<float[]> b = second.embedPassages(texts);
        List<float[]> out = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            out.add(join(a.get(i), b.get(i)));
        }
        return out;
    }

    private static float[] join(float[] a, float[] b) {
        return concat(scaled(a), scaled(b));
    }

    private static float[] scaled(float[] v) {
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * HALF;
        }
        return out;
    }

    private static float[] concat(float[] a, float[] b) {
        float[] v = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, v, a.length, b.length);
        return v;
    }

    @Override
    public void close() {
        first.close();
        second.close();
    }
}
