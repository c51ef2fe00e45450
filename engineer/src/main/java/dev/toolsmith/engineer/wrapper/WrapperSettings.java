package dev.toolsmith.engineer.wrapper;

/**
 * Limits a generated wrapper gets: the timeout and response cap when the spec or approval sets none, and
 * the ceilings an approved binding may not exceed.
 */
public record WrapperSettings(int defaultTimeoutMs, int maxTimeoutMs, long defaultMaxResponseBytes,
        long maxResponseBytesCeiling) {

    public static WrapperSettings defaults() {
        return new WrapperSettings(10_000, 60_000, 2L * 1024 * 1024, 16L * 1024 * 1024);
    }
}
