package dev.toolsmith.librarian.airlock.source;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The scanning worker: every {@code toolsmith.airlock.scan-tick} it scans the sources that are due.
 * Directory sources are never scanned on schedule (only on demand and for gaps). Skipped while the
 * previous tick still runs, so one slow source delays the next tick instead of piling up scans.
 */
@ApplicationScoped
public class ScanScheduler {

    private static final Logger LOG = Logger.getLogger(ScanScheduler.class);

    private final SourceScanner scanner;

    public ScanScheduler(SourceScanner scanner) {
        this.scanner = scanner;
    }

    @Scheduled(every = "${toolsmith.airlock.scan-tick:30s}", delayed = "${toolsmith.airlock.scan-delay:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scanDueSources() {
        try {
            scanner.scanDue();
        } catch (RuntimeException e) {
            LOG.errorf(e, "the scan tick failed; the next tick tries again");
        }
    }
}
