package dev.toolsmith.search;

import java.util.Arrays;

/** A bounded min-heap of (slot, score): keeps the best {@code capacity} offered. Not thread-safe. */
final class TopSlots {

    private final int capacity;
    private final int[] slots;
    private final float[] scores;
    private int size;
    private int observed;
    private double sum;
    private double sumSq;

    TopSlots(int capacity) {
        this.capacity = Math.max(0, capacity);
        this.slots = new int[this.capacity];
        this.scores = new float[this.capacity];
    }

    /** Whether a score could enter: lets callers skip expensive checks for hopeless candidates. */
    boolean wouldAccept(float score) {
        return size < capacity || (capacity > 0 && score > scores[0]);
    }

    void offer(int slot, float score) {
        if (size < capacity) {
            slots[size] = slot;
            scores[size] = score;
            siftUp(size++);
        } else if (capacity > 0 && score > scores[0]) {
            slots[0] = slot;
            scores[0] = score;
            siftDown(0);
        }
    }

    /** Records a score for the catalog statistics, whether or not it enters the heap. */
    void observe(float score) {
        observed++;
        sum += score;
        sumSq += (double) score * score;
    }

    /**
     * Mean and standard deviation of the observed scores over {@code population} items, the unobserved
     * ones counting as zero (BM25 gives non-matching tools nothing). The deviation has a floor so a
     * near-constant score cannot blow up the standardised values.
     */
    HybridRanker.Stats stats(int population, double minStd) {
        int n = Math.max(population, observed);
        if (n == 0) {
            return HybridRanker.Stats.NONE;
        }
        double mean = sum / n;
        double var = Math.max(0, sumSq / n - mean * mean);
        return new HybridRanker.Stats(mean, Math.max(minStd, Math.sqrt(var)));
    }

    int size() {
        return size;
    }

    /** Slots best first; destroys nothing (works on a copy). */
    int[] slotsBestFirst() {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(scores[b], scores[a]));
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = slots[order[i]];
        }
        return out;
    }

    /** Scores matching {@link #slotsBestFirst()}. */
    float[] scoresBestFirst() {
        float[] copy = Arrays.copyOf(scores, size);
        Arrays.sort(copy);
        for (int i = 0, j = size - 1; i < j; i++, j--) {
            float t = copy[i];
            copy[i] = copy[j];
            copy[j] = t;
        }
        return copy;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (scores[i] >= scores[parent]) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int min = i;
            if (l < size && scores[l] < scores[min]) {
                min = l;
            }
            if (r < size && scores[r] < scores[min]) {
                min = r;
            }
            if (min == i) {
                return;
            }
            swap(i, min);
            i = min;
        }
    }

    private void swap(int a, int b) {
        int s = slots[a];
        slots[a] = slots[b];
        slots[b] = s;
        float f = scores[a];
        scores[a] = scores[b];
        scores[b] = f;
    }
}
