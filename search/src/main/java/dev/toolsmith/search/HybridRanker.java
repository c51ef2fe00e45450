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

    /**
     * The candidates' dot products with the query's leading components, summed while the rest of the query was
     * still being embedded ({@link ToolIndex}'s first pass), so that only the rest is left once it arrives. The
     * sums are {@link #dot}'s own running sums, carried on by {@link #continueDot}: a cosine comes out bit for bit
     * as one {@link #dot} over the whole vector gives it.
     */
    static final class LeadingSums {
        static final LeadingSums NONE = new LeadingSums(0);

        private final int upTo;
        private final Map<Integer, float[]> bySlot = new HashMap<>();

        /** Sums over components {@code [0, upTo)}; {@code upTo} a multiple of 4 (see {@link #partialSums}). */
        LeadingSums(int upTo) {
            this.upTo = upTo;
        }

        /** Whether sums over the {@code leading} components of a {@code dimension}-long vector can be carried on. */
        static boolean possible(int leading, int dimension) {
            return leading > 0 && leading < dimension && leading % SUMS == 0;
        }

        void add(int slot, float[] leading, ToolVectors v) {
            if (bySlot.containsKey(slot)) {
                return;
            }
            float[] sums = new float[2 * SUMS];
            partialSums(leading, v.tool(), upTo, sums, 0);
            partialSums(leading, v.title(), upTo, sums, SUMS);
            bySlot.put(slot, sums);
        }

        double toolCosine(int slot, float[] qv, ToolVectors v) {
            float[] sums = bySlot.get(slot);
            return sums == null ? dot(qv, v.tool()) : continueDot(qv, v.tool(), upTo, sums, 0);
        }

        double titleCosine(int slot, float[] qv, ToolVectors v) {
            float[] sums = bySlot.get(slot);
            return sums == null ? dot(qv, v.title()) : continueDot(qv, v.title(), upTo, sums, SUMS);
        }
    }

    List<Candidate> rank(RetrievalMode mode, float[] qv, TopSlots dense, Stats denseStats, TopSlots lexical,
            Stats lexicalStats, IntFunction<ToolVectors> vectorsOf, LeadingSums leading) {
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
                cos = leading.toolCosine(slot, qv, v);
                title = leading.titleCosine(slot, qv, v);
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

    /** How many running sums {@link #dot} keeps: four independent chains of multiply-adds. */
    static final int SUMS = 4;

    /** Running sums to start a dot product from. */
    private static final float[] NO_SUMS = new float[SUMS];

    static double dot(float[] a, float[] b) {
        return continueDot(a, b, 0, NO_SUMS, 0);
    }

    /**
     * {@link #dot}'s four running sums over components {@code [0, to)} ({@code to} a multiple of 4), written to
     * {@code sums[at..at+3]}.
     */
    static void partialSums(float[] a, float[] b, int to, float[] sums, int at) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        for (int i = 0; i + 3 < to; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        sums[at] = s0;
        sums[at + 1] = s1;
        sums[at + 2] = s2;
        sums[at + 3] = s3;
    }

    /** {@link #dot} carried on from component {@code from} with the running sums {@link #partialSums} left. */
    static double continueDot(float[] a, float[] b, int from, float[] sums, int at) {
        float s0 = sums[at];
        float s1 = sums[at + 1];
        float s2 = sums[at + 2];
        float s3 = sums[at + 3];
        int n = Math.min(a.length, b.length);
        int i = from;
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
