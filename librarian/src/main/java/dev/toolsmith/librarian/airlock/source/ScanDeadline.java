package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.librarian.airlock.ScanTimeoutException;
import java.time.Duration;

/** The end of one scan's time: every step checks it, and every wait for the database is bounded by it. */
final class ScanDeadline {

    private final long endNanos;

    private ScanDeadline(long endNanos) {
        this.endNanos = endNanos;
    }

    static ScanDeadline after(Duration timeout) {
        return new ScanDeadline(System.nanoTime() + timeout.toNanos());
    }

    Duration remaining() {
        return Duration.ofNanos(endNanos - System.nanoTime());
    }

    /** Fails the scan when its time is up, naming the step it would start next. */
    void check(String nextStep) {
        if (System.nanoTime() - endNanos >= 0) {
            throw new ScanTimeoutException(nextStep);
        }
    }
}
