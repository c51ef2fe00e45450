package dev.toolsmith.search.embed;

import java.util.List;

/**
 * A {@link TextEmbedder} that hands every call to another one: extend it and override only what a
 * decorator changes (a cache of query vectors, a counter in a test).
 *
 * <p>{@link #startQuery(String)} is not forwarded: the interface's default goes through
 * {@link #embedQuery(String)}, so a decorator of {@code embedQuery} still sees every query. A decorator
 * that wants the delegate's early primary part overrides it (as {@link CachingTextEmbedder} does).
 */
public abstract class ForwardingTextEmbedder implements TextEmbedder {

    protected final TextEmbedder delegate;

    protected ForwardingTextEmbedder(TextEmbedder delegate) {
        this.delegate = delegate;
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public int primaryDimension() {
        return delegate.primaryDimension();
    }

    @Override
    public float[] embedQuery(String text) {
        return delegate.embedQuery(text);
    }

    @Override
    public float[] embedPassage(String text) {
        return delegate.embedPassage(text);
    }

    @Override
    public List<float[]> embedPassages(List<String> texts) {
        return delegate.embedPassages(texts);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
