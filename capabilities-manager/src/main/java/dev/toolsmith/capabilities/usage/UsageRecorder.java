package dev.toolsmith.capabilities.usage;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Writes call records in batches, off the calls' path: a step pays for its policy checks, not for its
 * statistics. Flushed every {@code toolsmith.usage.flush-interval} and at shutdown; a crash loses at
 * most that much of the statistics, never quota or budget (those are reserved before each call).
 */
@ApplicationScoped
public class UsageRecorder {

    private static final Logger LOG = Logger.getLogger(UsageRecorder.class);
    private static final int MAX_QUEUED = 100_000;
    private static final String INSERT = "INSERT INTO plugin_call (tool_id, caller, kind, outcome, health_failure, "
            + "latency_ms, http_status, failure_kind, reason, cost, called_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private final DataSource dataSource;
    private final ConcurrentLinkedQueue<CallRecord> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();

    @Inject
    public UsageRecorder(AgroalDataSource dataSource) {
        this((DataSource) dataSource);
    }

    public UsageRecorder(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public void record(CallRecord record) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            LOG.warnf("usage queue full (database unreachable?): a record of %s is dropped", record.toolId());
            return;
        }
        queue.add(record);
    }

    @Scheduled(every = "${toolsmith.usage.flush-interval:500ms}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduledFlush() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warnf("usage records not written yet, retried: %s", e.getMessage());
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        scheduledFlush();
    }

    /** Writes everything queued so far; returns how many records. */
    public synchronized int flush() {
        List<CallRecord> batch = new ArrayList<>();
        for (CallRecord record = queue.poll(); record != null; record = queue.poll()) {
            batch.add(record);
        }
        if (batch.isEmpty()) {
            return 0;
        }
        try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement(INSERT)) {
            for (CallRecord record : batch) {
                insert.setString(1, record.toolId());
                insert.setString(2, record.caller());
                insert.setString(3, record.kind().name());
                insert.setString(4, record.outcome().name());
                insert.setBoolean(5, record.healthFailure());
                setLong(insert, 6, record.latencyMs());
                if (record.httpStatus() == null) {
                    insert.setNull(7, Types.INTEGER);
                } else {
                    insert.setInt(7, record.httpStatus());
                }
                insert.setString(8, record.failureKind());
                insert.setString(9, record.reason());
                insert.setBigDecimal(10, record.cost() == null ? java.math.BigDecimal.ZERO : record.cost());
                insert.setTimestamp(11, Timestamp.from(record.at()));
                insert.addBatch();
            }
            insert.executeBatch();
            queued.addAndGet(-batch.size());
            return batch.size();
        } catch (SQLException e) {
            queue.addAll(batch); // order does not matter: every record carries its own time
            throw new IllegalStateException("could not write " + batch.size() + " usage records: " + e.getMessage(), e);
        }
    }

    private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        } else {
            statement.setInt(index, (int) Math.min(Integer.MAX_VALUE, value));
        }
    }
}
