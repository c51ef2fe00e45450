package dev.toolsmith.eventing;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.postgresql.PGStatement;

/**
 * Has PostgreSQL plan a statement for each execution's own parameters. The outbox tables start empty and grow;
 * a server-side prepared statement lets PostgreSQL settle on a generic plan, and one settled while a table was
 * small is a sequential scan that then reads every retained row (seen: 12–48 ms per batch and most of the
 * database's CPU at 1,000 events/s). Planning these short statements each time costs microseconds.
 */
final class PlannedPerExecution {

    private PlannedPerExecution() {
    }

    static void apply(PreparedStatement statement) throws SQLException {
        statement.unwrap(PGStatement.class).setPrepareThreshold(0);
    }
}
