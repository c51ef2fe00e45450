package dev.toolsmith.eventing;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;
import org.postgresql.PGStatement;

/**
 * The relay's bookkeeping of what it has sent, so that sending never waits for the database: events on
 * their way to Kafka or acknowledged but not yet marked are <em>unmarked</em> (the relay's next look at the
 * queue skips them, so nothing is sent twice while its mark is pending), and a thread of its own marks
 * acknowledged rows published in groups, vacuums the table now and then ({@link OutboxVacuum}) and deletes
 * rows past their retention.
 *
 * <p>Marks commit without waiting for the disk ({@code synchronous_commit = off}): a mark lost in a database
 * crash only means the event is published again, which at-least-once delivery allows (consumers deduplicate
 * by event id). A mark that fails is tried again; its rows stay unmarked, so they are not sent again.
 */
final class PublishedMarks implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PublishedMarks.class);
    private static final int MARKS_PER_STATEMENT = 5_000;
    private static final long RETRY_BACKOFF_MS = 1_000;
    private static final long CLEANUP_EVERY_MS = 60_000;
    /** Rows past their retention deleted per statement: marks never wait long behind a big delete. */
    private static final int DELETES_PER_STATEMENT = 2_000;

    private final AgroalDataSource dataSource;
    private final OutboxVacuum vacuum;
    private final Duration retention;
    private final Duration dedupeRetention;
    private final Set<UUID> unmarked = ConcurrentHashMap.newKeySet();
    private final LinkedBlockingQueue<UUID> acknowledged = new LinkedBlockingQueue<>();
    private final AtomicReference<Exception> sendFailure = new AtomicReference<>();
    private final Object progress = new Object();
    private final Thread worker;
    private volatile boolean running = true;
    private volatile boolean marking;
    private long lastCleanup;
    private boolean cleanupPending;

    PublishedMarks(AgroalDataSource dataSource, OutboxVacuum vacuum, Duration retention, Duration dedupeRetention,
            String name) {
        this.dataSource = dataSource;
        this.vacuum = vacuum;
        this.retention = retention;
        this.dedupeRetention = dedupeRetention;
        this.worker = new Thread(this::run, name);
        worker.setDaemon(true);
        worker.start();
    }

    /** An event handed to Kafka: unmarked until its acknowledgement is marked. */
    void sent(UUID id) {
        unmarked.add(id);
    }

    /** Kafka's answer for a sent event; called on the producer's I/O thread, so it only queues. */
    void answered(UUID id, Exception failure) {
        if (failure == null) {
            acknowledged.add(id);
        } else {
            sendFailure.compareAndSet(null, failure);
        }
    }

    /** The first failed send since the last call, if any. */
    Exception takeSendFailure() {
        return sendFailure.getAndSet(null);
    }

    /** The ids a look at the queue must skip. */
    UUID[] unmarkedIds() {
        return unmarked.toArray(UUID[]::new);
    }

    /** Waits (up to {@code timeout}) until fewer than {@code limit} events are unmarked. */
    void awaitFewerUnmarkedThan(int limit, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            while (unmarked.size() >= limit && running) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                TimeUnit.NANOSECONDS.timedWait(progress, left);
            }
        }
    }

    /**
     * Once every send has been answered (the producer flushed): waits until the acknowledged events are
     * marked, then forgets the rest, whose sends failed, so the next look at the queue reads them again.
     */
    void settleAfterFlush(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            while ((!acknowledged.isEmpty() || marking) && running) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(progress, left);
            }
        }
        unmarked.clear();
        sendFailure.set(null);
    }

    private void run() {
        while (running || !acknowledged.isEmpty()) {
            try {
                UUID first = acknowledged.poll(100, TimeUnit.MILLISECONDS);
                if (first != null) {
                    List<UUID> group = new ArrayList<>();
                    group.add(first);
                    acknowledged.drainTo(group, MARKS_PER_STATEMENT - 1);
                    markUntilDone(group);
                }
                cleanUpIfDue();
            } catch (InterruptedException e) {
                if (!running) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void markUntilDone(List<UUID> group) throws InterruptedException {
        marking = true;
        try {
            while (true) {
                try {
                    mark(group);
                    break;
                } catch (SQLException e) {
                    if (!running) {
                        return; // stopping: these rows stay unpublished and go again after the restart
                    }
                    LOG.warnf("marking %d outbox rows published failed: %s; retrying in %d ms", group.size(),
                            e.getMessage(), RETRY_BACKOFF_MS);
                    Thread.sleep(RETRY_BACKOFF_MS);
                }
            }
            group.forEach(unmarked::remove);
        } finally {
            marking = false;
            synchronized (progress) {
                progress.notifyAll();
            }
        }
        vacuum.published(group.size());
    }

    private void mark(List<UUID> ids) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (Statement asynchronous = connection.createStatement();
                    PreparedStatement mark = connection.prepareStatement(retention.isZero()
                            ? "DELETE FROM outbox_event WHERE id = ANY(?)"
                            : "UPDATE outbox_event SET published_at = now() WHERE id = ANY(?)")) {
                asynchronous.execute("SET LOCAL synchronous_commit = off");
                plannedPerExecution(mark);
                mark.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
                mark.executeUpdate();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * Has PostgreSQL plan the statement for each execution's own parameters. The outbox starts empty and
     * grows to the retention's worth of published rows; a server-side prepared statement lets PostgreSQL
     * settle on a generic plan, and one settled while the table was small is a sequential scan that then
     * reads every retained row each time (seen: 12–48 ms per batch and most of the database's CPU at 1,000
     * events/s). Planning these short statements each time costs microseconds.
     */
    static void plannedPerExecution(PreparedStatement statement) throws SQLException {
        statement.unwrap(PGStatement.class).setPrepareThreshold(0);
    }

    /** Every minute, published rows and remembered event ids past their retention go, a bounded chunk a turn. */
    private void cleanUpIfDue() {
        long now = System.currentTimeMillis();
        if (!cleanupPending && now - lastCleanup < CLEANUP_EVERY_MS) {
            return;
        }
        lastCleanup = now;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement outbox = connection.prepareStatement(
                        "DELETE FROM outbox_event WHERE id IN (SELECT id FROM outbox_event "
                                + "WHERE published_at < now() - make_interval(secs => ?) LIMIT ?)");
                PreparedStatement inbox = connection.prepareStatement(
                        "DELETE FROM processed_event WHERE (event_id, consumer) IN (SELECT event_id, consumer "
                                + "FROM processed_event WHERE processed_at < now() - make_interval(secs => ?) LIMIT ?)")) {
            plannedPerExecution(outbox);
            plannedPerExecution(inbox);
            outbox.setLong(1, retention.toSeconds());
            outbox.setInt(2, DELETES_PER_STATEMENT);
            inbox.setLong(1, dedupeRetention.toSeconds());
            inbox.setInt(2, DELETES_PER_STATEMENT);
            int outboxRows = outbox.executeUpdate();
            int inboxRows = inbox.executeUpdate();
            cleanupPending = outboxRows == DELETES_PER_STATEMENT || inboxRows == DELETES_PER_STATEMENT;
        } catch (SQLException e) {
            cleanupPending = false;
            LOG.debugf("outbox clean-up skipped: %s", e.getMessage());
        }
    }

    /** Marks what was acknowledged so far, then stops. */
    @Override
    public void close() {
        running = false;
        try {
            worker.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
