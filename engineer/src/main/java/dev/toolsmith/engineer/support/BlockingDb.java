package dev.toolsmith.engineer.support;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * The engineer's workers (builds, drafts) are blocking: they wait for an LLM, a verification run or the
 * librarian between short database steps. This runs one reactive Panache step on a Vert.x context and
 * waits for it, so a worker never holds a session across the slow parts.
 */
public final class BlockingDb {

    private BlockingDb() {
    }

    public static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
