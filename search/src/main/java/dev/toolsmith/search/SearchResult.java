package dev.toolsmith.search;

import dev.toolsmith.contracts.search.SearchHit;
import java.util.List;

/**
 * Ranked hits, best first. {@code confidence} is the calibrated probability that the first hit is the
 * right tool (0 when there are no hits); compare it with {@link SearchDefaults#SUBSTITUTION_THRESHOLD}.
 * {@code confidenceFeatures} is the evidence that confidence was computed from (diagnostics, refitting).
 * {@code lexicalOnly} says the cascade answered from BM25 alone, without embedding the query, because
 * BM25's own confidence already cleared the substitution threshold (its hits are ranked and scored as in
 * {@link RetrievalMode#BM25}).
 */
public record SearchResult(List<SearchHit> hits, double confidence, double[] confidenceFeatures,
        boolean lexicalOnly) {

    public SearchResult {
        hits = hits == null ? List.of() : List.copyOf(hits);
        confidenceFeatures = confidenceFeatures == null ? new double[0] : confidenceFeatures.clone();
    }

    /** A result the dense side took part in. */
    public SearchResult(List<SearchHit> hits, double confidence, double[] confidenceFeatures) {
        this(hits, confidence, confidenceFeatures, false);
    }

    public static SearchResult empty() {
        return new SearchResult(List.of(), 0.0, null, false);
    }

    /** Whether the top hit is confident enough to substitute at the default threshold. */
    public boolean confident() {
        return !hits.isEmpty() && confidence >= SearchDefaults.SUBSTITUTION_THRESHOLD;
    }
}
