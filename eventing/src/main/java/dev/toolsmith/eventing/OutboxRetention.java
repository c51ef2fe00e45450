package dev.toolsmith.eventing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Deletes published outbox rows and remembered event ids once past their retention. Every minute, a bounded
 * chunk per turn of the relay's loop until none is left: one statement deleting a minute of a busy outbox at
 * once held the relay, and every event behind it, for a long moment.
 */
final class OutboxRetention {

    private static final long EVERY_MS = 60_000;
    static final int DELETES_PER_STATEMENT = 2_000;

    // The oldest rows in publishing order are the candidates (created_at grows with it): reading them through
    // the primary key finds a chunk without an index on created_at, which every insert would have to keep.
    private static final String OUTBOX = """
            DELETE FROM outbox_event WHERE (tx_id, position) IN (
                SELECT tx_id, position FROM (
                    SELECT tx_id, position, created_at FROM outbox_event ORDER BY tx_id, position LIMIT ?) oldest
                WHERE created_at < now() - make_interval(secs => ?) AND (tx_id, position) <= (?, ?))""";
    private static final String INBOX = """
            DELETE FROM processed_event WHERE (event_id, consumer) IN (
                SELECT event_id, consumer FROM processed_event
                WHERE processed_at < now() - make_interval(secs => ?) LIMIT ?)""";

    private final Duration outboxRetention;
    private final Duration dedupeRetention;
    private long lastRun;
    private boolean unfinished;

    /** A negative retention would delete rows as soon as they are published: refused by the setting's name. */
    OutboxRetention(Duration outboxRetention, Duration dedupeRetention) {
        refuseNegative("toolsmith.outbox.retention", outboxRetention);
        refuseNegative("toolsmith.outbox.dedupe-retention", dedupeRetention);
        this.outboxRetention = outboxRetention;
        this.dedupeRetention = dedupeRetention;
    }

    private static void refuseNegative(String setting, Duration value) {
        if (value.isNegative()) {
            throw new IllegalArgumentException(setting + " must not be negative, got " + value);
        }
    }

    /** Deletes a chunk of each table when a minute has passed or the last chunk was full. */
    void cleanUpIfDue(Connection connection, OutboxPosition published) throws SQLException {
        long now = System.currentTimeMillis();
        if (!unfinished && now - lastRun < EVERY_MS) {
            return;
        }
        lastRun = now;
        unfinished = deleteOutboxRows(connection, published) == DELETES_PER_STATEMENT
                | deleteProcessedIds(connection) == DELETES_PER_STATEMENT;
    }

    /** Only rows the relay has published: an unpublished row stays however old it is. */
    int deleteOutboxRows(Connection connection, OutboxPosition published) throws SQLException {
        try (PreparedStatement outbox = connection.prepareStatement(OUTBOX)) {
            PlannedPerExecution.apply(outbox);
            outbox.setInt(1, DELETES_PER_STATEMENT);
            outbox.setLong(2, outboxRetention.toSeconds());
            outbox.setLong(3, published.txId());
            outbox.setLong(4, published.position());
            return outbox.executeUpdate();
        }
    }

    private int deleteProcessedIds(Connection connection) throws SQLException {
        try (PreparedStatement inbox = connection.prepareStatement(INBOX)) {
            PlannedPerExecution.apply(inbox);
            inbox.setLong(1, dedupeRetention.toSeconds());
            inbox.setInt(2, DELETES_PER_STATEMENT);
            return inbox.executeUpdate();
        }
    }
}
