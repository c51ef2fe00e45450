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
 * shortlist; the shortlist is re-scored with the exact float vectors. Not thread-safe: the index guards it.
 */
final class QuantizedVectors {

    private final int dim;
    private byte[] rows;
    private float[] scales;

    QuantizedVectors(int dim, int capacity) {
        this.dim = dim;
        this.rows = new byte[capacity * dim];
        this.scales = new float[capacity];
    }

    /** A query vector quantised the same way, so it can be dotted with rows. */
    record Query(byte[] values, float scale) {
    }

    static Query query(float[] v) {
        byte[] out = new byte[v.length];
        float scale = quantise(v, 0, v.length, out, 0);
        return new Query(out, scale);
    }

    void ensureCapacity(int slots) {
        if (slots > scales.length) {
            int capacity = Math.max(slots, scales.length * 2);
            rows = Arrays.copyOf(rows, capacity * dim);
            scales = Arrays.copyOf(scales, capacity);
        }
    }

    void set(int slot, float[] vector) {
        scales[slot] = quantise(vector, 0, dim, rows, slot * dim);
    }

    void clear(int slot) {
        Arrays.fill(rows, slot * dim, (slot + 1) * dim, (byte) 0);
        scales[slot] = 0;
    }

    /** Approximate dot product of the query with a row, over the components {@code [0, length)}. */
    float dot(Query q, int slot, int length) {
        byte[] a = q.values();
        byte[] r = rows;
        int base = slot * dim;
        // one accumulator: C2 vectorises this shape of byte loop, and not the unrolled one
        int sum = 0;
        for (int i = 0; i < length; i++) {
            sum += a[i] * r[base + i];
        }
        return sum * q.scale() * scales[slot];
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
