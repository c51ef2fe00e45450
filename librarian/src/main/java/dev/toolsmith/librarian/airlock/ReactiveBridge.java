package dev.toolsmith.librarian.airlock;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Runs a Hibernate Reactive unit of work from a worker thread and waits for it. Scans and gap searches
 * do blocking work (HTTP fetches, JGit, embeddings) between their database steps, so they run on worker
 * threads and cross into the reactive world here. A scan waits at most the time it has left: a unit of
 * work that never completes then fails the scan with a reason instead of holding its worker for good.
 */
public final class ReactiveBridge {

    private ReactiveBridge() {
    }

    public static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** As {@link #await(Supplier)}, failing with {@link ScanTimeoutException} when no result came within {@code atMost}. */
    public static <T> T await(Supplier<Uni<T>> work, Duration atMost, String step) {
        if (atMost.isNegative() || atMost.isZero()) {
            throw new ScanTimeoutException(step);
        }
        return await(() -> work.get().ifNoItem().after(atMost).failWith(() -> new ScanTimeoutException(step)));
    }
}
