package dev.toolsmith.capabilities.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The policy tables stay small: a housekeeping run removes the token buckets that have been idle long enough
 * to be full again and the per-call usage rows older than the retention (62 days), and keeps everything else.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PolicyHousekeepingTest {

    @Inject
    PolicyHousekeeping housekeeping;

    @Inject
    RateLimiter rateLimiter;

    @Inject
    PolicySettings settings;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void removesIdleBucketsAndUsageRowsPastTheRetentionAndKeepsTheRest() throws SQLException {
        String idleTool = tool("idle");
        String busyTool = tool("busy");
        UsagePolicy.RateLimit tenPerMinute = new UsagePolicy.RateLimit(null, 10, null);
        assertThat(rateLimiter.tryAcquire(idleTool, "planner-a", tenPerMinute)).isEmpty();
        assertThat(rateLimiter.tryAcquire(busyTool, "planner-a", tenPerMinute)).isEmpty();
        assertThat(bucketsOf(idleTool)).as("the tool's bucket (callers share it whole here)").hasSize(1);
        // the idle tool's buckets were last drawn from long enough ago to be full again
        execute("UPDATE rate_limit_bucket SET expires_at = ? WHERE id LIKE ?",
                Instant.now().minusSeconds(5).toEpochMilli(), "%|" + idleTool + "|%");

        Duration retention = settings.usageRetention();
        long expired = insertCall(idleTool, Instant.now().minus(retention).minus(Duration.ofHours(1)));
        long kept = insertCall(idleTool, Instant.now().minus(retention).plus(Duration.ofHours(1)));

        housekeeping.run();

        assertThat(bucketsOf(idleTool)).isEmpty();
        assertThat(bucketsOf(busyTool)).hasSize(1);
        assertThat(callIds(idleTool)).containsExactly(kept).doesNotContain(expired);
        // a bucket removed as full is simply full again: the next call is allowed and starts a new one
        assertThat(rateLimiter.tryAcquire(idleTool, "planner-a", tenPerMinute)).isEmpty();
        assertThat(bucketsOf(idleTool)).hasSize(1);
    }

    @Test
    void aRunWithNothingToRemoveChangesNothing() throws SQLException {
        String tool = tool("quiet");
        long recent = insertCall(tool, Instant.now().minus(Duration.ofDays(1)));

        housekeeping.run();
        housekeeping.run();

        assertThat(callIds(tool)).containsExactly(recent);
    }

    private static String tool(String name) {
        return "housekeeping-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private long insertCall(String toolId, Instant calledAt) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
                "INSERT INTO plugin_call (tool_id, caller, kind, outcome, health_failure, called_at) "
                        + "VALUES (?, 'planner-a', 'CALL', 'SUCCEEDED', false, ?) RETURNING id")) {
            s.setString(1, toolId);
            s.setTimestamp(2, Timestamp.from(calledAt));
            try (ResultSet rows = s.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private List<Long> callIds(String toolId) throws SQLException {
        return longs("SELECT id FROM plugin_call WHERE tool_id = ? ORDER BY id", toolId);
    }

    private List<Long> bucketsOf(String toolId) throws SQLException {
        return longs("SELECT expires_at FROM rate_limit_bucket WHERE id LIKE ?", "%|" + toolId + "|%");
    }

    private List<Long> longs(String sql, String parameter) throws SQLException {
        List<Long> values = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getLong(1));
                }
            }
        }
        return values;
    }

    private void execute(String sql, long value, String parameter) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, value);
            s.setString(2, parameter);
            assertThat(s.executeUpdate()).isPositive();
        }
    }
}
