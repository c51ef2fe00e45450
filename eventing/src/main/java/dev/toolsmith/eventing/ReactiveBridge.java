package dev.toolsmith.eventing;

import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Runs one reactive unit of work (a Hibernate Reactive Panache session or transaction) from a blocking
 * worker thread and waits for its result. The services' workers (scans, gap searches, builds, drafts)
 * wait for HTTP fetches, JGit, embeddings or an LLM between short database steps; they cross into the
 * reactive world here, one step at a time, so no session is held across the slow parts.
 *
 * <p>Never call it on an event-loop thread: it blocks.
 */
public final class ReactiveBridge {

    private ReactiveBridge() {
    }

    /**
     * The item of {@code work}, subscribed on a Vert.x context (a new duplicated context, as reactive
     * Panache needs). A failure is rethrown as it is when unchecked, else wrapped in an
     * {@link IllegalStateException} with the failure as its cause.
     */
    public static <T> T await(Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (CompletionException e) {
            // Mutiny's blocking await wraps a checked failure of the Uni in a CompletionException
            Throwable cause = e.getCause();
            if (cause != null && !(cause instanceof RuntimeException) && !(cause instanceof Error)) {
                throw new IllegalStateException(cause.getMessage(), cause);
            }
            throw e;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * As {@link #await(Supplier)}, waiting at most {@code atMost}: a unit of work that never completes then
     * fails the caller with {@code onTimeout}'s exception instead of holding its worker for good. With no
     * time left ({@code atMost} zero or negative) the work does not start.
     */
    public static <T> T await(Supplier<Uni<T>> work, Duration atMost, Supplier<? extends RuntimeException> onTimeout) {
        if (atMost.isNegative() || atMost.isZero()) {
            throw onTimeout.get();
        }
        return await(() -> work.get().ifNoItem().after(atMost).failWith(onTimeout));
    }
}
