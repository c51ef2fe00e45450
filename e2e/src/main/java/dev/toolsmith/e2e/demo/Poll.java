package dev.toolsmith.e2e.demo;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** Asks again, twice a second, until an answer comes or time is up. */
final class Poll {

    private Poll() {
    }

    static <T> Optional<T> until(Duration timeout, Supplier<T> probe) {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            T answer = probe.get();
            if (answer != null) {
                return Optional.of(answer);
            }
            if (System.nanoTime() > end) {
                return Optional.empty();
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
    }
}
