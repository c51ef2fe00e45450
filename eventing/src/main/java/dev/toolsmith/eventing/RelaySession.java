package dev.toolsmith.eventing;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The session settings of the relay's own connection, for as long as its turn lasts ({@code DISCARD ALL} at the
 * end of the turn takes them back).
 */
final class RelaySession {

    private RelaySession() {
    }

    /**
     * What the relay's session is called while its turn lasts: with several replicas, {@code pg_stat_activity}
     * names the process that holds the advisory lock ({@code outbox-relay <schema> <pid>@<host>}; PostgreSQL
     * keeps the first 63 bytes).
     */
    static String applicationName(String schema) {
        return "outbox-relay " + schema + " " + ManagementFactory.getRuntimeMXBean().getName();
    }

    static void begin(Connection connection, String schema) throws SQLException {
        try (PreparedStatement name = connection.prepareStatement("SELECT set_config('application_name', ?, false)")) {
            name.setString(1, applicationName(schema));
            name.execute();
        }
        try (Statement setup = connection.createStatement()) {
            // Only the cursor and retention deletes are written here: a cursor update lost in a database crash
            // only publishes its events again, which at-least-once delivery allows.
            setup.execute("SET synchronous_commit = off");
            // The relay reads the outbox in its primary key's order from a position. The planner weighs that
            // index against scanning and sorting the table by the table's statistics, and an outbox without
            // them (new, just emptied, autovacuum behind or off) makes a row comparison look like a third of
            // the table: it then scans and sorts every retained row on each read (3 ms a read at 10,000 rows,
            // and most of the database's CPU at 1,000 events/s). With sorting ruled out, the index is the only
            // ordered plan, custom or generic, so the relay's reads can be prepared and planned once. (Ruling out
            // sequential scans instead would also take them from the one-row cursor table, whose update then
            // walks its index into a long chain of dead row versions.)
            setup.execute("SET enable_sort = off");
        }
    }
}
