package dev.toolsmith.librarian.airlock;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * Runs a Hibernate Reactive unit of work from a worker thread and waits for it. Scans and gap searches
 * do blocking work (HTTP fetches, JGit, embeddings) between their database steps, so they run on worker
 * threads and cross into the reactive world here.
 */
final class ReactiveBridge {

    private ReactiveBridge() {
    }

    static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
