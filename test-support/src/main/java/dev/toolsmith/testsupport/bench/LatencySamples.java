package dev.toolsmith.testsupport.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The durations of one measured stage of a benchmark (a raw HTTP call, a call through the executor, the policy
 * checks), in nanoseconds, and their nearest-rank percentiles in milliseconds. The executor and policy overhead
 * benchmarks time their stages with it and report them alike. JDK only, so a driver can use it without the rest of
 * test-support on its classpath.
 */
public final class LatencySamples {

    /** A stage to time. */
    @FunctionalInterface
    public interface Stage<T> {
        T run() throws Exception;
    }

    private final long[] nanos;
    private int count;
    private boolean sorted = true;

    /** Room for {@code capacity} samples: the measured iterations. */
    public LatencySamples(int capacity) {
        this.nanos = new long[capacity];
    }

    public void add(long sampleNanos) {
        nanos[count++] = sampleNanos;
        sorted = false;
    }

    /** Runs {@code stage}, keeps how long it took, and returns what it returned. */
    public <T> T time(Stage<T> stage) throws Exception {
        long start = System.nanoTime();
        T result = stage.run();
        add(System.nanoTime() - start);
        return result;
    }

    /** The nearest-rank {@code q} percentile ({@code 0 < q <= 1}) in milliseconds; NaN without samples. */
    public double percentileMs(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        if (!sorted) {
            Arrays.sort(nanos, 0, count);
            sorted = true;
        }
        int rank = (int) Math.ceil(q * count) - 1;
        return nanos[Math.max(0, Math.min(rank, count - 1))] / 1_000_000.0;
    }

    public double p50Ms() {
        return percentileMs(0.50);
    }

    public double p99Ms() {
        return percentileMs(0.99);
    }

    /** One line of a report: {@code label}, then p50 and p99 in milliseconds. */
    public String row(String label) {
        return String.format(Locale.ROOT, "%-70s p50 %8.3f ms   p99 %8.3f ms", label, p50Ms(), p99Ms());
    }

    /** Milliseconds to three decimals, as the reports' JSON carries them. */
    public static double round(double ms) {
        return Math.round(ms * 1000.0) / 1000.0;
    }
}
