package dev.toolsmith.librarian.airlock;

import dev.toolsmith.testsupport.PostgresTestResource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Watches the test database from a connection of its own for sessions that sit "idle in transaction"
 * longer than a threshold: a transaction left open while its owner waits for something else. Polls
 * {@code pg_stat_activity} until closed and remembers every offender it saw.
 */
final class IdleTransactionWatch implements AutoCloseable {

    private final String database;
    private final long thresholdMillis;
    private final List<String> offenders = new ArrayList<>();
    private final Thread poller;
    private volatile boolean running = true;

    IdleTransactionWatch(String database, long thresholdMillis) {
        this.database = database;
        this.thresholdMillis = thresholdMillis;
        this.poller = new Thread(this::poll, "idle-transaction-watch");
        this.poller.setDaemon(true);
        this.poller.start();
    }

    private void poll() {
        try (Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl(database),
                PostgresTestResource.user(), PostgresTestResource.password()); Statement sql = db.createStatement()) {
            while (running) {
                try (ResultSet rows = sql.executeQuery("select pid, extract(epoch from now() - state_change) * 1000,"
                        + " left(query, 120) from pg_stat_activity where datname = '" + database + "' and state ="
                        + " 'idle in transaction' and now() - state_change > interval '" + thresholdMillis
                        + " milliseconds'")) {
                    while (rows.next()) {
                        synchronized (offenders) {
                            offenders.add("pid " + rows.getInt(1) + " idle in transaction for " + Math.round(
                                    rows.getDouble(2)) + " ms after: " + rows.getString(3));
                        }
                    }
                }
                Thread.sleep(250);
            }
        } catch (SQLException e) {
            synchronized (offenders) {
                offenders.add("the watch could not read pg_stat_activity: " + e.getMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    List<String> offenders() {
        synchronized (offenders) {
            return List.copyOf(offenders);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        poller.join(5_000);
    }
}
