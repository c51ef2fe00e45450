package dev.toolsmith.search;

import java.util.Arrays;

/**
 * The catalog's vectors as one contiguous int8 table, for the passes that touch every tool (the
 * first-pass scan and the catalog statistics). A search streams this table once per query; as floats it
 * was 1.5 KB per tool and, with the embedding models' weights evicting it from the cache between queries,
 * a 10,000-tool scan was bound by memory bandwidth. As int8 it is a quarter of that.
 *
 * <p>Each row is quantised symmetrically with its own scale ({@code max |x| / 127}), so a dot product is
 * {@code scaleA * scaleB * Σ a8·b8}: about 1% off the float value, which only decides who enters the
 * shortlist; the shortlist is re-scored with the exact float vectors. A query is quantised per range of
 * components (its own scale for each model's half), so the halves can be dotted at different times.
 *
 * <p>The signs of each row's leading {@code signBits} components are also kept as bits, for a prefilter of
 * large catalogs that scores the query's 4-bit magnitudes against the row's signs with AND and popcount
 * (about 15 ns a row, against about 230 ns for the int8 dot of 384 components, which C2 on JDK 17 does not
 * vectorise). Counting differing signs of query and row alone (XOR, 3 ns) was too coarse: a shortlist of
 * 30 % of a 10,000-tool catalog still missed a tool of the int8 top 100 in 4 of 10 queries. Not
 * thread-safe: the index guards it.
 */
final class QuantizedVectors {

    private final int dim;
    private final int signBits;
    private final int signWords;
    private byte[] rows;
    private float[] scales;
    private long[] signs;

    QuantizedVectors(int dim, int signBits, int capacity) {
        this.dim = dim;
        this.signBits = signBits;
        this.signWords = (signBits + 63) / 64;
        this.rows = new byte[capacity * dim];
        this.scales = new float[capacity];
        this.signs = new long[capacity * signWords];
    }

    /** Components {@code [from, from + values.length)} of a query, quantised with their own scale. */
    record Query(byte[] values, float scale, int from) {
    }

    /** The whole vector as one range. */
    static Query query(float[] v) {
        return query(v, 0, v.length);
    }

    /** Components {@code [from, to)} of {@code v}. */
    static Query query(float[] v, int from, int to) {
        byte[] out = new byte[to - from];
        float scale = quantise(v, from, to, out, 0);
        return new Query(out, scale, from);
    }

    /** Magnitude bits of a {@link SignQuery}'s components. */
    static final int SIGN_QUERY_BITS = 4;

    /**
     * A query's leading {@code signBits} components as {@value #SIGN_QUERY_BITS}-bit magnitudes, one bit
     * plane per magnitude bit, split by the component's sign: {@code positive[b]} has bit j set when
     * component j is positive and bit b of its magnitude is set.
     */
    record SignQuery(long[][] positive, long[][] negative, int maxScore) {
    }

    SignQuery signQuery(float[] v) {
        float max = 0;
        for (int i = 0; i < signBits; i++) {
            max = Math.max(max, Math.abs(v[i]));
        }
        int top = (1 << SIGN_QUERY_BITS) - 1;
        long[][] pos = new long[SIGN_QUERY_BITS][signWords];
        long[][] neg = new long[SIGN_QUERY_BITS][signWords];
        int total = 0;
        for (int i = 0; i < signBits && max > 0; i++) {
            int m = Math.round(Math.abs(v[i]) / max * top);
            total += m;
            long[][] planes = v[i] > 0 ? pos : neg;
            for (int b = 0; b < SIGN_QUERY_BITS; b++) {
                if ((m & (1 << b)) != 0) {
                    planes[b][i >>> 6] |= 1L << (i & 63);
                }
            }
        }
        return new SignQuery(pos, neg, total);
    }

    /**
     * With {@code m_j} the query's quantised magnitudes: {@code Σ m_j} over the leading components where
     * both query and row are positive, minus {@code Σ m_j} where the query is negative and the row positive.
     * That is {@code (Σ q_j · sign(row_j) + Σ q_j) / 2}, so it ranks rows as the query's dot with the rows'
     * signs does. Between {@code -maxScore} and {@code maxScore}.
     */
    int signScore(SignQuery q, int slot) {
        int base = slot * signWords;
        int score = 0;
        for (int b = 0; b < SIGN_QUERY_BITS; b++) {
            long[] p = q.positive()[b];
            long[] n = q.negative()[b];
            int plane = 0;
            for (int i = 0; i < signWords; i++) {
                long r = signs[base + i];
                plane += Long.bitCount(p[i] & r) - Long.bitCount(n[i] & r);
            }
            score += plane << b;
        }
        return score;
    }

    void ensureCapacity(int slots) {
        if (slots > scales.length) {
            int capacity = Math.max(slots, scales.length * 2);
            rows = Arrays.copyOf(rows, capacity * dim);
            scales = Arrays.copyOf(scales, capacity);
            signs = Arrays.copyOf(signs, capacity * signWords);
        }
    }

    void set(int slot, float[] vector) {
        scales[slot] = quantise(vector, 0, dim, rows, slot * dim);
        setSigns(vector, signs, slot * signWords);
    }

    void clear(int slot) {
        Arrays.fill(rows, slot * dim, (slot + 1) * dim, (byte) 0);
        Arrays.fill(signs, slot * signWords, (slot + 1) * signWords, 0L);
        scales[slot] = 0;
    }

    /** Approximate dot product of a query range with the same components of a row. */
    float dot(Query q, int slot) {
        return rawDot(q, slot) * q.scale() * scales[slot];
    }

    /** {@code Σ q8·row8} over the query's range: times {@code q.scale() * scale(slot)} it is the dot product. */
    int rawDot(Query q, int slot) {
        byte[] a = q.values();
        byte[] r = rows;
        int base = slot * dim + q.from();
        // one accumulator: the simplest shape for C2 (it did not vectorise an unrolled one either)
        int sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * r[base + i];
        }
        return sum;
    }

    float scale(int slot) {
        return scales[slot];
    }

    private void setSigns(float[] v, long[] out, int at) {
        Arrays.fill(out, at, at + signWords, 0L);
        for (int i = 0; i < signBits; i++) {
            if (v[i] > 0) {
                out[at + (i >>> 6)] |= 1L << (i & 63);
            }
        }
    }

    private static float quantise(float[] v, int from, int to, byte[] out, int at) {
        float max = 0;
        for (int i = from; i < to; i++) {
            max = Math.max(max, Math.abs(v[i]));
        }
        if (max == 0) {
            Arrays.fill(out, at, at + (to - from), (byte) 0);
            return 0;
        }
        float scale = max / 127f;
        for (int i = from; i < to; i++) {
            out[at + i - from] = (byte) Math.round(v[i] / scale);
        }
        return scale;
    }
}
