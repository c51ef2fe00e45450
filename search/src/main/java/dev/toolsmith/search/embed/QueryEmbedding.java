package dev.toolsmith.search.embed;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;

/**
 * A query vector that may arrive in two steps: its leading {@link TextEmbedder#primaryDimension()}
 * components first, the whole vector later. An ensemble has its first model's half while the second model
 * is still running, and a search spends that time on the work that reads only the first half (the scan
 * over the whole catalog, BM25, half of the catalog statistics). Thread-safe.
 */
public final class QueryEmbedding {

    private final float[] primary;
    private final CompletableFuture<float[]> full;

    /** {@code primary} must equal the first {@code primary.length} components of what {@code full} yields. */
    public QueryEmbedding(float[] primary, CompletableFuture<float[]> full) {
        this.primary = primary;
        this.full = full;
    }

    /** A vector that is already whole. */
    public static QueryEmbedding of(float[] vector, int primaryDimension) {
        return new QueryEmbedding(Arrays.copyOf(vector, primaryDimension), CompletableFuture.completedFuture(vector));
    }

    /** The leading components, available now. Callers must not change the array. */
    public float[] primary() {
        return primary;
    }

    /** The whole vector, waiting for it if needed; an embedding failure is rethrown unwrapped. */
    public float[] full() {
        try {
            return full.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** The same embedding whose whole vector goes through {@code then} once it is there. */
    public QueryEmbedding thenFull(UnaryOperator<float[]> then) {
        return new QueryEmbedding(primary, full.thenApply(then));
    }
}
