package dev.toolsmith.search;

/** Defaults shared by the library and its callers. */
public final class SearchDefaults {

    /**
     * The confidence at or above which the capabilities manager may substitute the top hit for a novel
     * verb without asking. Checked held out (fitted on one catalog, measured on another, docs/search.md
     * "Confidence"): free text 100 % precision in both directions between MetaTool and Gorilla-HF; plan
     * steps, with the cascade, 97.5 % (Seal-Tools → OpenAPI steps) and 99.6 % (the other way), 2026-11-27.
     */
    public static final double SUBSTITUTION_THRESHOLD = 0.95;

    /** Longer query text is cut (after verb and text are joined); requests should be ≤ 4 KB anyway. */
    public static final int MAX_QUERY_CHARS = 4096;

    /** How many tools each matcher proposes to the second stage. */
    public static final int CANDIDATES = 100;

    private SearchDefaults() {
    }
}
