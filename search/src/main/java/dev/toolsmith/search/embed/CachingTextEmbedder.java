package dev.toolsmith.search.embed;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Remembers the vectors of recent query texts. Planner traffic repeats its queries: every step with a
 * verb that has no learned alias searches again (a verb whose best tool is only proposed, an unresolved
 * verb retried, several plans using a new verb before its first substitution is learned), and embedding a
 * query is most of a search's time. Passages (tool texts) are not cached: they are embedded once and
 * stored with the tool. The vectors are the delegate's, so caching never changes a ranking. Thread-safe.
 */
public final class CachingTextEmbedder extends ForwardingTextEmbedder {

    private final Cache<String, float[]> queries;

    /** {@code maxQueries} distinct query texts are kept, least recently used first out. */
    public CachingTextEmbedder(TextEmbedder delegate, long maxQueries) {
        super(delegate);
        if (maxQueries < 1) {
            throw new IllegalArgumentException("maxQueries must be at least 1, got " + maxQueries);
        }
        // evictions on the caller's thread: a few map operations, and the size bound holds at every moment
        this.queries = Caffeine.newBuilder().maximumSize(maxQueries).executor(Runnable::run).build();
    }

    @Override
    public float[] embedQuery(String text) {
        // a copy, so no caller can change what the next caller of the same text gets
        return queries.get(text, delegate::embedQuery).clone();
    }

    /** A cached text is whole at once; otherwise the delegate's early primary part is kept. */
    @Override
    public QueryEmbedding startQuery(String text) {
        float[] cached = queries.getIfPresent(text);
        if (cached != null) {
            return QueryEmbedding.of(cached.clone(), delegate.primaryDimension());
        }
        return delegate.startQuery(text).thenFull(v -> {
            queries.put(text, v);
            return v.clone();
        });
    }

    /** Query texts held now. */
    public long cachedQueries() {
        return queries.estimatedSize();
    }
}
