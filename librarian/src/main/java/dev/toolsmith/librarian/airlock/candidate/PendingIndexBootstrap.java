package dev.toolsmith.librarian.airlock.candidate;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/** Fills the pending index from the candidate table at start, in the background (vectors are stored). */
@ApplicationScoped
public class PendingIndexBootstrap {

    private static final Logger LOG = Logger.getLogger(PendingIndexBootstrap.class);

    void onStart(@Observes StartupEvent event, PendingIndex pending) {
        Infrastructure.getDefaultWorkerPool().execute(() -> {
            try {
                pending.sync();
                LOG.infof("pending index ready: %d undecided candidates", pending.size());
            } catch (RuntimeException e) {
                LOG.warnf("pending index not loaded at start (the next gap or scan loads it): %s", e.getMessage());
            }
        });
    }
}
