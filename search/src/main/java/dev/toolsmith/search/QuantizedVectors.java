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
 * large catalogs that scores the query's 4-bit magnitudes against the row's signs with XNOR, AND and popcount
 * (15–26 ns a row on the machines measured, a tenth or less of the int8 dot of 384 components, which C2 on
 * JDK 17 does not vectorise). Counting differing signs of query and row alone (XOR, 3 ns) was too coarse: a
 * shortlist of 30 % of a 10,000-tool catalog still missed a tool of the int8 top 100 in 4 of 10 queries. Not
 * thread-safe for writes: the index guards them; any number of searches may read at once.
 */
final class QuantizedVectors {

    private final int dim;
    private final int signBits;
    private final int signWords;
    private byte[] rows;
    private float[] scales;
    private long[] signs;

    /** The most sign bits a row may keep: a sign score ({@code ≤ 15 · signBits}) must fit a {@code short}. */
    static final int MAX_SIGN_BITS = Short.MAX_VALUE / 15;

    QuantizedVectors(int dim, int signBits, int capacity) {
        if (signBits < 0 || signBits > Math.min(dim, MAX_SIGN_BITS)) {
            throw new IllegalArgumentException("sign bits must be between 0 and min(dim, " + MAX_SIGN_BITS + "): "
                    + signBits);
        }
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
     * A query's leading {@code signBits} components as {@value #SIGN_QUERY_BITS}-bit magnitudes {@code m_j}:
     * {@code positive} has bit j set when component j is positive, and {@code magnitudes} holds one bit plane per
     * magnitude bit, plane b at words {@code [b · signWords, (b + 1) · signWords)}. {@code maxScore} is {@code Σ m_j}.
     */
    record SignQuery(long[] positive, long[] magnitudes, int maxScore) {
    }

    SignQuery signQuery(float[] v) {
        float max = 0;
        for (int i = 0; i < signBits; i++) {
            max = Math.max(max, Math.abs(v[i]));
        }
        int top = (1 << SIGN_QUERY_BITS) - 1;
        long[] positive = new long[signWords];
        long[] planes = new long[SIGN_QUERY_BITS * signWords];
        int total = 0;
        for (int i = 0; i < signBits && max > 0; i++) {
            int m = Math.round(Math.abs(v[i]) / max * top);
            total += m;
            long bit = 1L << (i & 63);
            if (v[i] > 0) {
                positive[i >>> 6] |= bit;
            }
            for (int b = 0; b < SIGN_QUERY_BITS; b++) {
                if ((m & (1 << b)) != 0) {
                    planes[b * signWords + (i >>> 6)] |= bit;
                }
            }
        }
        return new SignQuery(positive, planes, total);
    }

    /**
     * {@code Σ m_j} over the leading components where the row's sign agrees with the query's (a row's zero
     * counts as negative). That is {@code (Σ q_j · sign(row_j) + Σ |q_j|) / 2} in units of the magnitudes, so it
     * ranks rows as the query's dot with the rows' signs does; between 0 and {@code maxScore}. Agreement is one
     * XNOR a word, so each magnitude plane costs one popcount (counting agreeing and disagreeing positives
     * apart took two).
     */
    int signScore(SignQuery q, int slot) {
        int base = slot * signWords;
        long[] positive = q.positive();
        long[] m = q.magnitudes();
        int score = 0;
        for (int i = 0; i < signWords; i++) {
            long agree = ~(positive[i] ^ signs[base + i]);
            int at = i;
            for (int b = 0; b < SIGN_QUERY_BITS; b++, at += signWords) {
                score += Long.bitCount(m[at] & agree) << b;
            }
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

    /** Rows {@link #readAhead} touches: far enough ahead that their lines arrive before they are multiplied. */
    static final int READ_AHEAD = 16;

    /**
     * The look-ahead reads' bytes, stored so the JIT cannot drop the reads. Concurrent searches store to it without
     * synchronisation on purpose: nothing ever reads it, so a lost store loses nothing.
     */
    private int readAheadSink;

    /**
     * Reads one byte of every cache line of the query's range in the rows of {@code slots[from, from +}
     * {@value #READ_AHEAD}{@code )}, for a loop of {@link #dot}s over scattered rows to call every
     * {@value #READ_AHEAD} rows with the index of the rows after them. A sign shortlist or a statistics sample
     * lies scattered over a table far larger than the cache, and a multiply loop asks for one row's lines at a
     * time, so at 100,000 tools the pass waited on memory; independent reads let the processor fetch many rows'
     * lines at once (a third off that pass, docs/decisions/2026-11-29-dense-pass-memory.md).
     */
    void readAhead(Query q, int[] slots, int from) {
        int len = q.values().length;
        int to = Math.min(slots.length, from + READ_AHEAD);
        int touched = 0;
        for (int j = from; j < to; j++) {
            int base = slots[j] * dim + q.from();
            for (int o = 0; o < len; o += 64) {
                touched ^= rows[base + o];
            }
        }
        readAheadSink ^= touched;
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
