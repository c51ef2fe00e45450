package dev.toolsmith.eventing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jboss.logging.Logger;

/**
 * Keeps the relay's order true after the database was restored into another PostgreSQL cluster. Rows and
 * the cursor carry the old cluster's transaction ids; the new cluster counts its own from wherever it
 * stands, often far lower, so rows written after the restore would sort behind the cursor and never be
 * published. That is visible as a transaction id at or above the next one the cluster will assign.
 *
 * <p>Rows written by this cluster are told apart by their tuple's {@code xmin}, which is the low 32 bits of
 * the writing transaction's id; a restored row's {@code xmin} is the restore's transaction. The restored
 * rows move before every real transaction: those the old cursor had passed to -1 (published), the others
 * to 0 (waiting, still in their order), and the cursor to just past the published ones. A restored row
 * whose ids match by chance is taken for a new one and published again, which at-least-once allows.
 */
final class OutboxRestore {

    private static final Logger LOG = Logger.getLogger(OutboxRestore.class);

    private static final String WENT_BACK = """
            SELECT GREATEST((SELECT max(tx_id) FROM outbox_event), (SELECT tx_id FROM outbox_cursor))
                >= CAST(CAST(pg_snapshot_xmax(pg_current_snapshot()) AS text) AS bigint)""";
    private static final String REBASE_ROWS = """
            UPDATE outbox_event o
            SET tx_id = CASE WHEN (o.tx_id, o.position) <= (c.tx_id, c.position) THEN -1 ELSE 0 END
            FROM outbox_cursor c
            WHERE o.tx_id % 4294967296 <> CAST(CAST(o.xmin AS text) AS bigint)""";
    private static final String REBASE_CURSOR = "UPDATE outbox_cursor SET tx_id = -1, position = " + Long.MAX_VALUE;

    private OutboxRestore() {
    }

    /** Called by the relay that holds the schema's lock, before it reads the cursor. */
    static void rebaseIfTransactionIdsWentBack(Connection connection, String schema) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            boolean wentBack;
            try (ResultSet result = statement.executeQuery(WENT_BACK)) {
                wentBack = result.next() && result.getBoolean(1);
            }
            if (!wentBack) {
                return;
            }
            connection.setAutoCommit(false);
            try {
                int rows = statement.executeUpdate(REBASE_ROWS);
                statement.executeUpdate(REBASE_CURSOR);
                connection.commit();
                LOG.warnf("outbox of %s: transaction ids went back (restored into another cluster?); %d rows from "
                        + "before were put ahead of new ones, unpublished ones still to be published", schema, rows);
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }
}
