package dev.toolsmith.search;

/** Which evidence ranks the tools. The service always uses {@link #HYBRID}; the others are baselines. */
public enum RetrievalMode {
    /** Lucene BM25 over the tool's fields only. */
    BM25,
    /** Cosine similarity of the query to the whole-tool vector only. */
    DENSE,
    /** Both, fused and re-ranked with per-field vectors (see docs/search.md). */
    HYBRID
}
