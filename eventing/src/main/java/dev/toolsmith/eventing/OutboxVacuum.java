package dev.toolsmith.eventing;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps the outbox's queue index lean. Marking a row published leaves its entry in the index of unpublished
 * rows until the table is vacuumed, and the relay's oldest-first scan walks every such entry: at a thousand
 * events a second that made each look at the queue cost 5–250 ms and most of the database's CPU, while
 * autovacuum visits a table at most once a minute. So the relay vacuums the table itself once enough rows
 * were published since the last time, on a thread of its own (a vacuum of a busy outbox takes tens of
 * milliseconds; publishing does not wait for it).
 */
final class OutboxVacuum {

    private static final Logger LOG = Logger.getLogger(OutboxVacuum.class);

    private final AgroalDataSource dataSource;
    private final long afterRows;
    private final AtomicLong publishedSince = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();

    /** {@code afterRows} published rows between vacuums; 0 leaves the table to autovacuum. */
    OutboxVacuum(AgroalDataSource dataSource, long afterRows) {
        this.dataSource = dataSource;
        this.afterRows = afterRows;
    }

    void published(int rows) {
        if (afterRows <= 0 || publishedSince.addAndGet(rows) < afterRows || !running.compareAndSet(false, true)) {
            return;
        }
        publishedSince.set(0);
        Thread vacuum = new Thread(this::vacuum, "outbox-vacuum");
        vacuum.setDaemon(true);
        vacuum.start();
    }

    private void vacuum() {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(true); // VACUUM cannot run inside a transaction
            statement.execute("VACUUM (SKIP_LOCKED) outbox_event");
        } catch (SQLException e) {
            // not the table's owner, or the database is away: autovacuum still does it, only later
            LOG.debugf("vacuum of the outbox skipped: %s", e.getMessage());
        } finally {
            running.set(false);
        }
    }
}
