package dev.toolsmith.openapi.fetch;

import java.time.Duration;

/**
 * Bounds on one fetch: the body size, the total time (connect, headers and body, over every redirect
 * hop) and the number of redirects followed.
 */
public record FetchLimits(long maxBytes, Duration timeout, int maxRedirects) {

    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);
    public static final int DEFAULT_MAX_REDIRECTS = 5;

    public FetchLimits {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxRedirects < 0) {
            throw new IllegalArgumentException("maxRedirects must not be negative");
        }
    }

    public static FetchLimits defaults() {
        return new FetchLimits(DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT, DEFAULT_MAX_REDIRECTS);
    }

    public FetchLimits withMaxBytes(long bytes) {
        return new FetchLimits(bytes, timeout, maxRedirects);
    }

    public FetchLimits withTimeout(Duration newTimeout) {
        return new FetchLimits(maxBytes, newTimeout, maxRedirects);
    }
}
