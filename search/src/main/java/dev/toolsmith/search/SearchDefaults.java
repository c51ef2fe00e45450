package dev.toolsmith.search;

/** Defaults shared by the library and its callers. */
public final class SearchDefaults {

    /**
     * The confidence at or above which the capabilities manager may substitute the top hit for a novel
     * verb without asking. Chosen so that, on both shared evaluation sets and held out from the fit, at
     * least 95 % of the queries that clear it have the right tool first (MetaTool 96 %, Gorilla-HF 100 %
     * pooled; 100 % on each when the model is fitted on the other set), see docs/search.md, "Confidence".
     */
    public static final double SUBSTITUTION_THRESHOLD = 0.95;

    /** Longer query text is cut (after verb and text are joined); requests should be ≤ 4 KB anyway. */
    public static final int MAX_QUERY_CHARS = 4096;

    /** How many tools each matcher proposes to the second stage. */
    public static final int CANDIDATES = 100;

    private SearchDefaults() {
    }
}
