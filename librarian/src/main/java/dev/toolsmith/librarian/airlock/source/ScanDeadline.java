package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.eventing.ReactiveBridge;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Supplier;

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

    /** The item of one reactive step, waiting at most the time left; fails the scan naming {@code step} after that. */
    <T> T await(Supplier<Uni<T>> work, String step) {
        return ReactiveBridge.await(work, remaining(), () -> new ScanTimeoutException(step));
    }

    /** Fails the scan when its time is up, naming the step it would start next. */
    void check(String nextStep) {
        if (System.nanoTime() - endNanos >= 0) {
            throw new ScanTimeoutException(nextStep);
        }
    }
}
