package dev.toolsmith.eventing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jboss.logging.Logger;

/**
 * How far Kafka has acknowledged the outbox, and the copy of that in the one-row {@code outbox_cursor}, which
 * trails it by at most {@link #SAVE_EVERY_MS}: saving after every batch cost a round trip and a row update per
 * commit at high rates. A crash republishes the events of that interval at most, which consumers deduplicate
 * by id like any redelivery; a relay that stops or loses its turn saves on leaving. Used by the relay's thread
 * only.
 */
final class RelayCursor {

    private static final Logger LOG = Logger.getLogger(RelayCursor.class);
    static final String SAVE = "UPDATE outbox_cursor SET tx_id = ?, position = ?";
    private static final String READ = "SELECT tx_id, position FROM outbox_cursor";
    /** The saved cursor trails the published position by this much at most. */
    static final long SAVE_EVERY_MS = 100;

    private final PreparedStatement save;
    private OutboxPosition published;
    private OutboxPosition saved;
    private long savedAt;

    private RelayCursor(PreparedStatement save, OutboxPosition start) {
        this.save = save;
        this.published = start;
        this.saved = start;
    }

    /** The saved position; {@code save} is the relay's prepared {@link #SAVE} on the same connection. */
    static RelayCursor read(Connection connection, PreparedStatement save) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet cursor = statement.executeQuery(READ)) {
            return new RelayCursor(save, cursor.next() ? new OutboxPosition(cursor.getLong(1), cursor.getLong(2))
                    : OutboxPosition.START);
        }
    }

    /** The last position Kafka acknowledged. */
    OutboxPosition published() {
        return published;
    }

    void advance(OutboxPosition acknowledged) {
        published = acknowledged;
    }

    void saveIfDue() throws SQLException {
        if (millisUntilDue() == 0) {
            save();
        }
    }

    /** 0 when an unsaved position is due; else the longest sleep that keeps it within the interval. */
    long millisUntilDue() {
        if (saved.equals(published)) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, savedAt + SAVE_EVERY_MS - System.currentTimeMillis());
    }

    void saveOnLeaving() {
        if (!saved.equals(published)) {
            try {
                save();
            } catch (SQLException e) {
                LOG.debugf("outbox cursor not saved on leaving (%s): the events since its last save will be "
                        + "published again", e.getMessage());
            }
        }
    }

    private void save() throws SQLException {
        save.setLong(1, published.txId());
        save.setLong(2, published.position());
        save.executeUpdate();
        saved = published;
        savedAt = System.currentTimeMillis();
    }
}
