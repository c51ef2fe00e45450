package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.librarian.airlock.candidate.PendingIndex;
import dev.toolsmith.librarian.airlock.discovery.DirectorySourceReader;
import dev.toolsmith.librarian.airlock.discovery.DiscoveredTool;
import dev.toolsmith.librarian.airlock.discovery.Discovery;
import dev.toolsmith.librarian.airlock.discovery.GitSourceReader;
import dev.toolsmith.librarian.airlock.discovery.MarketplaceSourceReader;
import dev.toolsmith.librarian.airlock.discovery.OpenApiSourceReader;
import dev.toolsmith.librarian.airlock.discovery.SourceReadException;
import dev.toolsmith.librarian.airlock.discovery.SourceSnapshot;
import dev.toolsmith.librarian.airlock.notification.Notifier;
import dev.toolsmith.search.ToolVectors;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Scans sources: claims one (a lease in the database, so two replicas or a manual and a scheduled scan
 * never scan it at once), reads it with the reader of its type, embeds new and changed candidates for
 * the pending index and files everything into the queue. A source that cannot be read records its error
 * in words (and notifies admins when it starts failing) and the others carry on. A scan is bounded by
 * {@code toolsmith.airlock.scan-timeout}: past it, it stops at its next step and the source is FAILED
 * with that reason; {@link RunningScans} lets health report one that does not stop. Blocking: call from
 * worker threads.
 */
@ApplicationScoped
public class SourceScanner {

    private static final Logger LOG = Logger.getLogger(SourceScanner.class);
    static final String SCANNING = "SCANNING";
    static final String FAILED = "FAILED";
    /** Recording a failure is one short statement; a database that does not answer in this time is down. */
    private static final Duration RECORD_FAILURE_WITHIN = Duration.ofMinutes(1);

    private final AirlockConfig config;
    private final OpenApiSourceReader openApi;
    private final GitSourceReader git;
    private final MarketplaceSourceReader marketplace;
    private final DirectorySourceReader directory;
    private final QueueUpdater queue;
    private final PendingIndex pending;
    private final Notifier notifier;
    private final RunningScans runningScans;

    public SourceScanner(AirlockConfig config, OpenApiSourceReader openApi, GitSourceReader git,
            MarketplaceSourceReader marketplace, DirectorySourceReader directory, QueueUpdater queue,
            PendingIndex pending, Notifier notifier, RunningScans runningScans) {
        this.runningScans = runningScans;
        this.config = config;
        this.openApi = openApi;
        this.git = git;
        this.marketplace = marketplace;
        this.directory = directory;
        this.queue = queue;
        this.pending = pending;
        this.notifier = notifier;
    }

    /** Scans every source that is due, one after another; returns how many were scanned. */
    public int scanDue() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<SourceEntity> due = ReactiveBridge.await(() -> Panache.withSession(() -> SourceEntity.<SourceEntity>list(
                "type <> 'directory' and nextScanAt <= ?1 and (status <> ?2 or scanStartedAt < ?3) order by nextScanAt",
                now, SCANNING, now.minus(config.scanLease()))));
        int scanned = 0;
        for (SourceEntity source : due) {
            try {
                if (claim(source.id)) {
                    scan(source.id);
                    scanned++;
                }
            } catch (RuntimeException e) {
                // one source's trouble (deleted mid-scan, a database hiccup) must not stop the others
                LOG.warnf("source %s was not scanned this tick: %s", source.id, e.getMessage());
            }
        }
        return scanned;
    }

    /**
     * Scans one source now. If a scan of it is already running, waits for that to finish (up to the scan
     * lease) and then scans again, so "scan now" always reflects the source as it is after the call.
     */
    public void scanNow(UUID id) {
        long deadline = System.nanoTime() + config.scanLease().toNanos();
        while (!claim(id)) {
            if (System.nanoTime() > deadline) {
                throw new jakarta.ws.rs.WebApplicationException("source " + id
                        + " is still being scanned; try again later", jakarta.ws.rs.core.Response.Status.CONFLICT);
            }
            sleep(Duration.ofMillis(200));
        }
        scan(id);
    }

    private boolean claim(UUID id) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Integer exists = ReactiveBridge.await(() -> Panache.withSession(() -> SourceEntity.count("id", id)
                .map(Long::intValue)));
        if (exists == 0) {
            throw new NotFoundException("no tool source " + id);
        }
        Integer claimed = ReactiveBridge.await(() -> Panache.withTransaction(() -> SourceEntity.update(
                "status = ?1, scanStartedAt = ?2 where id = ?3 and (status <> ?1 or scanStartedAt is null or scanStartedAt < ?4)",
                SCANNING, now, id, now.minus(config.scanLease()))));
        return claimed == 1;
    }

    private void scan(UUID id) {
        SourceEntity claimed = ReactiveBridge.await(() -> Panache.withSession(() -> SourceEntity.findById(id)));
        if (claimed == null) {
            return; // deleted meanwhile
        }
        SourceSnapshot source = claimed.snapshot();
        String previousStatus = claimed.lastScanAt == null ? "NEW" : Objects.requireNonNullElse(claimed.lastError, "")
                .isEmpty() ? "OK" : FAILED;
        ScanDeadline deadline = ScanDeadline.after(config.scanTimeout());
        try (RunningScans.Registration running = runningScans.started(source)) {
            Discovery discovery = read(source);
            QueueUpdater.Applied applied = file(source, discovery, deadline);
            LOG.infof("scanned source %s (%s): %d found, %d new, %d changed, %d skipped", source.name(), source.id(),
                    applied.found(), applied.added(), applied.changed(), applied.skipped());
            pending.sync();
        } catch (SourceReadException e) {
            recordFailure(source, e.getMessage(), previousStatus, claimed.lastError);
        } catch (ScanTimeoutException e) {
            recordFailure(source, "the scan did not finish within " + config.scanTimeout()
                    + " (toolsmith.airlock.scan-timeout) and was stopped while " + e.step()
                    + "; what it filed before is kept", previousStatus, claimed.lastError);
        } catch (RuntimeException e) {
            LOG.errorf(e, "scanning source %s failed unexpectedly", source.id());
            recordFailure(source, "internal error while scanning: " + e.getMessage(), previousStatus, claimed.lastError);
        }
    }

    /**
     * Files what the read found, a batch at a time: which tools are new or changed (a read), their
     * vectors (outside any transaction: embedding is the slow part), then the batch in one short
     * transaction; the source's state last. Every step waits at most the scan's remaining time.
     */
    private QueueUpdater.Applied file(SourceSnapshot source, Discovery discovery, ScanDeadline deadline) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<QueueUpdater.BatchApplied> filed = new ArrayList<>();
        List<List<DiscoveredTool>> batches = QueueUpdater.batches(QueueUpdater.distinct(discovery.tools()));
        for (int b = 0; b < batches.size(); b++) {
            List<DiscoveredTool> batch = batches.get(b);
            String step = "filing tools " + (b * QueueUpdater.BATCH_SIZE + 1) + "-" + (b * QueueUpdater.BATCH_SIZE
                    + batch.size()) + " of " + discovery.tools().size();
            deadline.check(step);
            Map<String, QueueUpdater.Change> changes = deadline.await(() -> queue.classify(source.id(), batch), step);
            Map<String, ToolVectors> vectors = new HashMap<>();
            for (DiscoveredTool tool : batch) {
                if (changes.get(tool.operationKey()) != QueueUpdater.Change.UNCHANGED) {
                    deadline.check(step);
                    try {
                        vectors.put(tool.operationKey(), pending.vectorize(tool.manifest()));
                    } catch (RuntimeException e) {
                        LOG.warnf("cannot embed %s of source %s: %s", tool.operationKey(), source.name(), e.getMessage());
                    }
                }
            }
            filed.add(deadline.await(() -> queue.fileBatch(source, batch, vectors, pending.modelId(), now), step));
        }
        deadline.check("recording the source's state");
        return deadline.await(() -> queue.finish(source, discovery, QueueUpdater.total(filed), true, now),
                "recording the source's state");
    }

    private Discovery read(SourceSnapshot source) throws SourceReadException {
        return switch (source.type()) {
            case OPENAPI -> openApi.read(source);
            case GIT -> git.read(source);
            case MARKETPLACE -> marketplace.read(source);
            case DIRECTORY -> directory.read(source);
            case INTERNAL -> throw new SourceReadException("internal tools have no source to scan");
        };
    }

    private void recordFailure(SourceSnapshot source, String error, String previousStatus, String previousError) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String message = error == null || error.isBlank() ? "the scan failed without a message" : error;
        boolean newProblem = !FAILED.equals(previousStatus) || !message.equals(previousError);
        LOG.warnf("scanning source %s (%s) failed: %s", source.name(), source.id(), message);
        try {
            // an update query, not an entity write: a source deleted meanwhile simply matches no row
            ReactiveBridge.await(() -> Panache.withTransaction(() -> SourceEntity.update("status = ?1, lastError = ?2,"
                    + " lastScanAt = ?3, nextScanAt = ?4, scanStartedAt = null, updatedAt = ?3 where id = ?5", FAILED,
                    message, now, now.plusSeconds(source.intervalSeconds()), source.id()).chain(updated -> {
                        if (updated == 0 || !newProblem) {
                            return Uni.createFrom().voidItem();
                        }
                        return notifier.raise(Notification.Kind.SOURCE_SCAN_FAILED, Notification.Severity.WARNING,
                                "Scanning source " + source.name() + " failed", message, source.id().toString());
                    })), RECORD_FAILURE_WITHIN, () -> new ScanTimeoutException("recording the failure"));
        } catch (ScanTimeoutException e) {
            // the database does not answer: the source stays SCANNING until its lease runs out, then is scanned again
            LOG.errorf("the failure of source %s (%s) could not be recorded within %s", source.name(), source.id(),
                    RECORD_FAILURE_WITHIN);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a running scan");
        }
    }

    static Optional<String> nonBlank(String text) {
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(text);
    }
}
