package dev.toolsmith.eventing;

import io.agroal.api.AgroalDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Listens for the {@code NOTIFY} that writers of other instances (and transactions of this one that do not
 * wake the relay themselves) issue on the relay's channel, and turns each into a local wake-up. It has a
 * connection of its own, so the relay can sleep on a local signal that both these notifications and this
 * instance's own writers reach ({@link OutboxRelay#wake()}).
 *
 * <p>{@link #listen} returns once {@code LISTEN} has run: a commit after that wakes the relay, and one before it
 * is found by the relay's next read. If the connection fails, the listener reconnects after a pause and wakes
 * the relay once (commits in between notified nobody); meanwhile the relay still looks at the table every poll
 * interval.
 */
final class OutboxNotifications implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(OutboxNotifications.class);
    /** How long one wait for notifications blocks: a close is noticed within it. */
    private static final int WAIT_MILLIS = 250;
    private static final long RECONNECT_AFTER_MS = 1_000;

    private final AgroalDataSource dataSource;
    private final String channel;
    private final Runnable wake;
    private final Thread thread;
    private volatile boolean open = true;
    /** Used by the listening thread only, once {@link #listen} has handed it over by starting that thread. */
    private Connection connection;

    private OutboxNotifications(AgroalDataSource dataSource, String channel, Runnable wake) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.wake = wake;
        this.thread = new Thread(this::run, "outbox-notifications-" + channel);
        this.thread.setDaemon(true);
    }

    /** Starts listening on {@code channel}; {@code wake} runs for every batch of notifications. */
    static OutboxNotifications listen(AgroalDataSource dataSource, String channel, Runnable wake) throws SQLException {
        OutboxNotifications notifications = new OutboxNotifications(dataSource, channel, wake);
        notifications.connection = notifications.connect();
        notifications.thread.start();
        return notifications;
    }

    private Connection connect() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            connection.setAutoCommit(true);
            try (Statement listen = connection.createStatement()) {
                listen.execute("LISTEN " + channel);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private void run() {
        while (open) {
            try {
                if (connection == null) {
                    connection = connect();
                    wake.run();
                }
                PGNotification[] received = connection.unwrap(PGConnection.class).getNotifications(WAIT_MILLIS);
                if (received != null && received.length > 0) {
                    wake.run();
                }
            } catch (SQLException | RuntimeException e) {
                if (open) {
                    LOG.warnf("outbox notifications on %s: %s; listening again in %d ms", channel, e.getMessage(),
                            RECONNECT_AFTER_MS);
                }
                connection = release(connection);
                pause();
            }
        }
        connection = release(connection);
    }

    /** Back to the pool without its {@code LISTEN}: the pool keeps the session. */
    private static Connection release(Connection connection) {
        if (connection != null) {
            try (Statement discard = connection.createStatement()) {
                discard.execute("DISCARD ALL");
            } catch (SQLException e) {
                LOG.debugf("listener connection not reset (%s)", e.getMessage());
            }
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debugf("listener connection not closed (%s)", e.getMessage());
            }
        }
        return null;
    }

    private void pause() {
        try {
            Thread.sleep(RECONNECT_AFTER_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            thread.join(WAIT_MILLIS * 4L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
