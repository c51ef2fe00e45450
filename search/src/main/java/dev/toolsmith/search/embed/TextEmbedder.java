package dev.toolsmith.search.embed;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns text into a unit-length dense vector. Queries and passages (tool texts) are embedded
 * differently by some models (bge wants an instruction prefix on queries only), so the two are separate.
 * Implementations are thread-safe.
 */
public interface TextEmbedder extends AutoCloseable {

    /** Identifies the model and its settings; vectors from different ids must never be mixed. */
    String modelId();

    int dimension();

    /**
     * How many leading components a first-pass scan may read to shortlist candidates (the whole vector
     * for a single model; the first model's half for an ensemble).
     */
    default int primaryDimension() {
        return dimension();
    }

    /** The vector of a search query; never null, unit length (all zeros for blank text). */
    float[] embedQuery(String text);

    /**
     * Starts embedding a query: the same vector as {@link #embedQuery(String)}, whose leading
     * {@link #primaryDimension()} components may be ready before the rest. The default embeds the whole
     * query first, through {@link #embedQuery(String)}.
     */
    default QueryEmbedding startQuery(String text) {
        return QueryEmbedding.of(embedQuery(text), primaryDimension());
    }

    /** The vector of a tool text (name, description, parameters); never null, unit length. */
    float[] embedPassage(String text);

    /** Releases native resources; the default has none. */
    @Override
    default void close() {
    }

    /** Many passages; implementations may use every core. Order is kept. */
    default List<float[]> embedPassages(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(embedPassage(t));
        }
        return out;
    }
}
