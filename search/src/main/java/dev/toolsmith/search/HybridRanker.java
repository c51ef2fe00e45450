package dev.toolsmith.search;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Second stage: fuses the lexical and dense candidates and attaches a calibrated confidence. Stateless
 * and thread-safe.
 *
 * <p>Each matcher's score is standardised against the whole catalog for this query (z-score: how many
 * standard deviations a tool stands out from the crowd), which, unlike min-max over a short list, is not
 * swayed by one outlier and means the same for a 200-tool and a 100,000-tool catalog. The fused score is
 * {@code zDense + LEXICAL_WEIGHT * zBm25}; dense similarity already averages two embedding models.
 */
final class HybridRanker {

    /**
     * Weight of standardised BM25 next to standardised dense similarity. 0.15–0.4 all beat both single
     * modes on both shared sets; 0.25 was the best of 0.2–0.35 on both sets together for the one-field BM25
     * (summed recall@5 and summed NDCG@10), not a per-set optimum (docs/search.md).
     */
    static final double LEXICAL_WEIGHT = Double.parseDouble(
            System.getProperty("toolsmith.search.lexicalWeight", "0.25")); // the property is for experiments only

    /**
     * One ranked tool with the evidence behind it. {@code score} orders the hits; {@code fused} is the fusion's
     * score, which a later stage ({@link CandidateReranker}) may re-weigh into {@code score} but never changes.
     */
    record Candidate(int slot, double score, double fused, double dense, double lexical, double zDense,
            double zLexical, double title, float[] vector) {

        Candidate(int slot, double fused, double dense, double lexical, double zDense, double zLexical, double title,
                float[] vector) {
            this(slot, fused, fused, dense, lexical, zDense, zLexical, title, vector);
        }

        Candidate withScore(double newScore) {
            return new Candidate(slot, newScore, fused, dense, lexical, zDense, zLexical, title, vector);
        }
    }

    /** Catalog-wide mean and standard deviation of one matcher's score for the current query. */
    record Stats(double mean, double std) {
        static final Stats NONE = new Stats(0, 1);

        double z(double x) {
            return (x - mean) / std;
        }
    }

    List<Candidate> rank(RetrievalMode mode, float[] qv, TopSlots dense, Stats denseStats, TopSlots lexical,
            Stats lexicalStats, IntFunction<ToolVectors> vectorsOf) {
        Map<Integer, double[]> raw = new HashMap<>();
        int[] ls = lexical.slotsBestFirst();
        float[] lsc = lexical.scoresBestFirst();
        for (int slot : dense.slotsBestFirst()) {
            raw.computeIfAbsent(slot, s -> new double[] {Double.NaN, 0});
        }
        for (int i = 0; i < ls.length; i++) {
            raw.computeIfAbsent(ls[i], s -> new double[] {Double.NaN, 0})[1] = lsc[i];
        }
        List<Candidate> out = new ArrayList<>(raw.size());
        for (Map.Entry<Integer, double[]> e : raw.entrySet()) {
            int slot = e.getKey();
            double bm25 = e.getValue()[1];
            double cos = 0;
            double title = 0;
            ToolVectors v = vectorsOf.apply(slot);
            if (qv != null) {
                cos = dot(qv, v.tool());
                title = dot(qv, v.title());
            }
            double zd = denseStats.z(cos);
            double zl = lexicalStats.z(bm25);
            double score = switch (mode) {
                case BM25 -> zl; // the same order as raw BM25, in units that mean the same on any catalog
                case DENSE -> cos;
                case HYBRID -> zd + LEXICAL_WEIGHT * zl;
            };
            out.add(new Candidate(slot, score, cos, bm25, zd, zl, title, v.tool()));
        }
        out.sort((a, b) -> Double.compare(b.score(), a.score()));
        return out;
    }

    static double dot(float[] a, float[] b) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int n = Math.min(a.length, b.length);
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
