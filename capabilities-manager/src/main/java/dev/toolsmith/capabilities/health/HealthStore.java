package dev.toolsmith.capabilities.health;

import dev.toolsmith.capabilities.usage.CallRecord;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code plugin_health} table and the health window over {@code plugin_call}. Blocking JDBC: the
 * worker runs on its own thread. Status changes are not here: they commit with their events
 * ({@link PluginStatusChanges}).
 */
@ApplicationScoped
public class HealthStore {

    /** How long a claimed probe is reserved for its replica; a crash mid-probe delays the next probe by this. */
    static final Duration PROBE_LEASE = Duration.ofMinutes(2);

    private final AgroalDataSource dataSource;

    public HealthStore(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The health row of a plugin, as the worker and the REST API read it. */
    public record HealthRow(String toolId, String status, int consecutiveFailures, int consecutiveSuccesses, Instant nextProbeAt,
            Instant lastProbeAt, Boolean lastProbeOk, String lastProbeReason, String disabledBy, Instant windowSince,
            ThresholdOverrides overrides) {
    }

    /** Starts tracking every wrapped plugin that has no health row yet (new registrations). */
    public int trackNewPlugins() {
        return update("INSERT INTO plugin_health (tool_id) SELECT tool_id FROM plugin WHERE plugin_type = 'WRAPPED_HTTP' "
                + "ON CONFLICT (tool_id) DO NOTHING");
    }

    /**
     * Claims up to {@code limit} due probes for this replica: their next_probe_at moves past the lease in
     * the same statement, and rows another replica is claiming are skipped, so each probe runs once. A
     * plugin an admin disabled is not claimed: the admin took it out of service (perhaps because its API
     * should not be called at all), and only an admin brings it back, so probing it would only keep calling
     * that API. One the health worker disabled is still claimed, so it can recover. Its next_probe_at stays
     * where it was, so an admin's enable brings the next probe at once.
     */
    public List<String> claimDue(int limit) {
        String sql = "UPDATE plugin_health SET next_probe_at = now() + make_interval(secs => ?) WHERE tool_id IN ("
                + "SELECT tool_id FROM plugin_health WHERE next_probe_at <= now() "
                + "AND disabled_by IS DISTINCT FROM 'ADMIN' ORDER BY next_probe_at "
                + "LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING tool_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setDouble(1, PROBE_LEASE.toSeconds());
            s.setInt(2, limit);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
            return ids;
        } catch (SQLException e) {
            throw failed("claim due health probes", e);
        }
    }

    /**
     * Probes soon any serving plugin whose real calls failed since its last probe: errors of real calls
     * bring the check forward instead of waiting out the interval.
     */
    public int probeSoonAfterFailedCalls() {
        return update("UPDATE plugin_health h SET next_probe_at = now() WHERE h.disabled_by IS NULL "
                + "AND h.next_probe_at > now() + interval '2 seconds' AND h.next_probe_at < now() + interval '1 hour' "
                + "AND EXISTS (SELECT 1 FROM plugin_call c WHERE c.tool_id = h.tool_id AND c.kind = 'CALL' "
                + "AND c.health_failure AND c.called_at > COALESCE(h.last_probe_at, h.window_since))");
    }

    /** Counts a probe's result (atomically) and writes it to the window; returns the row after the update. */
    public HealthRow recordProbe(CallRecord probe) {
        String counters = "UPDATE plugin_health SET "
                + "consecutive_failures = CASE WHEN ? THEN 0 ELSE consecutive_failures + 1 END, "
                + "consecutive_successes = CASE WHEN ? THEN consecutive_successes + 1 ELSE 0 END, "
                + "last_probe_at = ?, last_probe_ok = ?, last_probe_reason = ? WHERE tool_id = ?";
        String insert = "INSERT INTO plugin_call (tool_id, caller, kind, outcome, health_failure, latency_ms, "
                + "http_status, failure_kind, reason, cost, called_at) VALUES (?, NULL, 'PROBE', ?, ?, ?, ?, ?, ?, 0, ?)";
        boolean ok = probe.outcome() == CallRecord.Outcome.SUCCEEDED;
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement(counters); PreparedStatement i = c.prepareStatement(insert)) {
                s.setBoolean(1, ok);
                s.setBoolean(2, ok);
                s.setTimestamp(3, Timestamp.from(probe.at()));
                s.setBoolean(4, ok);
                s.setString(5, probe.reason());
                s.setString(6, probe.toolId());
                s.executeUpdate();
                i.setString(1, probe.toolId());
                i.setString(2, probe.outcome().name());
                i.setBoolean(3, probe.healthFailure());
                i.setObject(4, probe.latencyMs() == null ? null : (int) Math.min(Integer.MAX_VALUE, probe.latencyMs()),
                        Types.INTEGER);
                i.setObject(5, probe.httpStatus(), Types.INTEGER);
                i.setString(6, probe.failureKind());
                i.setString(7, probe.reason());
                i.setTimestamp(8, Timestamp.from(probe.at()));
                i.executeUpdate();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failed("record the probe of " + probe.toolId(), e);
        }
        return find(probe.toolId()).orElseThrow(() -> new IllegalStateException("no health row for " + probe.toolId()));
    }

    /**
     * Schedules the next probe at {@code at}, but never later than the interval an admin has set by now. A
     * probe measures with the thresholds it read when it started; an admin who shortens the interval while
     * that probe is in flight must not see its result push the next probe out by the old interval.
     */
    public void scheduleNextProbe(String toolId, Instant at) {
        String sql = "UPDATE plugin_health SET next_probe_at = CASE WHEN interval_seconds IS NULL THEN ? "
                + "ELSE LEAST(?, now() + make_interval(secs => interval_seconds)) END WHERE tool_id = ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setTimestamp(1, Timestamp.from(at));
            s.setTimestamp(2, Timestamp.from(at));
            s.setString(3, toolId);
            s.executeUpdate();
        } catch (SQLException e) {
            throw failed("schedule the next probe of " + toolId, e);
        }
    }

    /**
     * The window: the latest {@code size} probes and real calls since {@code since}, leaving out denials
     * and failures that were the caller's own mistake.
     */
    public HealthRules.Window window(String toolId, Instant since, int size) {
        String sql = "SELECT count(*), count(*) FILTER (WHERE health_failure) FROM (SELECT health_failure FROM plugin_call "
                + "WHERE tool_id = ? AND called_at >= ? AND outcome <> 'DENIED' "
                + "AND (outcome = 'SUCCEEDED' OR health_failure) ORDER BY called_at DESC LIMIT ?) recent";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, toolId);
            s.setTimestamp(2, Timestamp.from(since));
            s.setInt(3, size);
            try (ResultSet row = s.executeQuery()) {
                row.next();
                return new HealthRules.Window(row.getInt(1), row.getInt(2));
            }
        } catch (SQLException e) {
            throw failed("read the health window of " + toolId, e);
        }
    }

    private static final String SELECT_ROWS = "SELECT h.tool_id, h.consecutive_failures, h.consecutive_successes, "
            + "h.next_probe_at, h.last_probe_at, h.last_probe_ok, h.last_probe_reason, h.disabled_by, h.window_since, "
            + "h.failures_to_disable, h.successes_to_enable, h.error_rate_threshold, h.error_rate_window, "
            + "h.interval_seconds, p.status FROM plugin_health h JOIN plugin p ON p.tool_id = h.tool_id";

    /** The plugin's health row; its status is read from the plugin row (another replica or an admin may have changed it). */
    public Optional<HealthRow> find(String toolId) {
        List<HealthRow> rows = rows(SELECT_ROWS + " WHERE h.tool_id = ?", toolId);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /** Every health row, by tool id. */
    public java.util.Map<String, HealthRow> all() {
        java.util.Map<String, HealthRow> byTool = new java.util.HashMap<>();
        for (HealthRow row : rows(SELECT_ROWS, null)) {
            byTool.put(row.toolId(), row);
        }
        return byTool;
    }

    private List<HealthRow> rows(String sql, String toolId) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            if (toolId != null) {
                s.setString(1, toolId);
            }
            List<HealthRow> rows = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    rows.add(new HealthRow(r.getString(1), r.getString(15), r.getInt(2), r.getInt(3), instant(r, 4),
                            instant(r, 5), (Boolean) r.getObject(6), r.getString(7), r.getString(8), instant(r, 9),
                            new ThresholdOverrides((Integer) r.getObject(10), (Integer) r.getObject(11),
                                    (Double) r.getObject(12), (Integer) r.getObject(13), (Integer) r.getObject(14))));
                }
            }
            return rows;
        } catch (SQLException e) {
            throw failed("read plugin health", e);
        }
    }

    /** A probe's result, for the UI's health history. */
    public record ProbeEntry(Instant at, boolean ok, Long latencyMs, Integer httpStatus, String failureKind,
            String error) {
    }

    /** A status change, for the UI's history. */
    public record StatusEntry(Instant at, String status, String reason, String by) {
    }

    /** The latest probes, oldest first (the UI draws them left to right). */
    public List<ProbeEntry> probes(String toolId, int limit) {
        String sql = "SELECT called_at, outcome = 'SUCCEEDED', latency_ms, http_status, failure_kind, reason FROM ("
                + "SELECT * FROM plugin_call WHERE tool_id = ? AND kind = 'PROBE' ORDER BY called_at DESC LIMIT ?) p "
                + "ORDER BY called_at";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, toolId);
            s.setInt(2, limit);
            List<ProbeEntry> entries = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    Number latency = (Number) r.getObject(3);
                    entries.add(new ProbeEntry(instant(r, 1), r.getBoolean(2), latency == null ? null : latency.longValue(),
                            (Integer) r.getObject(4), r.getString(5), r.getString(6)));
                }
            }
            return entries;
        } catch (SQLException e) {
            throw failed("read the probes of " + toolId, e);
        }
    }

    /** The latest status changes, newest first. */
    public List<StatusEntry> statusChanges(String toolId, int limit) {
        String sql = "SELECT changed_at, status, reason, changed_by FROM plugin_status_history WHERE tool_id = ? "
                + "ORDER BY changed_at DESC, id DESC LIMIT ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, toolId);
            s.setInt(2, limit);
            List<StatusEntry> entries = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    entries.add(new StatusEntry(instant(r, 1), r.getString(2), r.getString(3), r.getString(4)));
                }
            }
            return entries;
        } catch (SQLException e) {
            throw failed("read the status history of " + toolId, e);
        }
    }

    /** Error rate and median latency of a plugin's probes and calls over a recent span. */
    public record Recent(int samples, int failures, Double latencyP50Ms) {

        public Double errorRate() {
            return samples == 0 ? null : (double) failures / samples;
        }
    }

    /** {@link Recent} figures of every plugin with samples since {@code since}, by tool id. */
    public java.util.Map<String, Recent> recent(Instant since) {
        String sql = "SELECT tool_id, count(*), count(*) FILTER (WHERE health_failure), "
                + "percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FROM plugin_call WHERE called_at >= ? "
                + "AND outcome <> 'DENIED' AND (outcome = 'SUCCEEDED' OR health_failure) GROUP BY tool_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setTimestamp(1, Timestamp.from(since));
            java.util.Map<String, Recent> recent = new java.util.HashMap<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    recent.put(r.getString(1), new Recent(r.getInt(2), r.getInt(3), (Double) r.getObject(4)));
                }
            }
            return recent;
        } catch (SQLException e) {
            throw failed("read recent health figures", e);
        }
    }

    private int update(String sql) {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            return s.executeUpdate();
        } catch (SQLException e) {
            throw failed("update plugin health", e);
        }
    }

    private static Instant instant(ResultSet row, int column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }

    private static IllegalStateException failed(String what, SQLException e) {
        return new IllegalStateException("could not " + what + ": " + e.getMessage(), e);
    }
}
