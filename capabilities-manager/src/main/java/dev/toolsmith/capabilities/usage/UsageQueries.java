package dev.toolsmith.capabilities.usage;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Usage reports: call counts, errors, denials and latency percentiles from {@code plugin_call}; quota and
 * spend from the exact counters of {@code usage_period} (what replicas drew and used; use within a lease
 * window shows once it is settled, see UsageReservations). Blocking JDBC.
 */
@ApplicationScoped
public class UsageQueries {

    /** The columns every figure has, after its key column. */
    private static final String FIGURES = "count(*) FILTER (WHERE outcome <> 'DENIED'), "
            + "count(*) FILTER (WHERE outcome = 'SUCCEEDED'), count(*) FILTER (WHERE outcome = 'FAILED'), "
            + "count(*) FILTER (WHERE outcome = 'DENIED'), "
            + "percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE outcome <> 'DENIED'), "
            + "percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE outcome <> 'DENIED'), "
            + "COALESCE(sum(cost), 0)";
    private static final String CALLS_IN_PERIOD = " FROM plugin_call WHERE kind = 'CALL' AND called_at >= ? AND called_at < ?";

    private enum Key {
        NONE,
        TOOL,
        CALLER,
        TIME
    }

    private final AgroalDataSource dataSource;

    public UsageQueries(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    public ToolUsage forTool(String toolId, UsagePolicy policy, UsagePeriod period, Instant now) {
        String ofTool = CALLS_IN_PERIOD + " AND tool_id = ?";
        String bucket = period.name().equals("day") ? "hour" : "day";
        try (Connection c = dataSource.getConnection()) {
            UsageFigures total = figures(c, "SELECT NULL, " + FIGURES + ofTool, Key.NONE, period, toolId).get(0);
            List<UsageFigures> perCaller = figures(c, "SELECT caller, " + FIGURES + ofTool + " GROUP BY caller ORDER BY caller",
                    Key.CALLER, period, toolId);
            List<UsageFigures> series = figures(c, "SELECT date_trunc('" + bucket + "', called_at), " + FIGURES + ofTool
                    + " GROUP BY 1 ORDER BY 1", Key.TIME, period, toolId);
            LocalDate today = now.atOffset(ZoneOffset.UTC).toLocalDate();
            Counter day = counter(c, toolId, "DAY", today);
            Counter month = counter(c, toolId, "MONTH", today.withDayOfMonth(1));
            ToolUsage.QuotaUse quota = policy.quota() == null ? null
                    : new ToolUsage.QuotaUse(policy.quota().perDay(), day.calls(), policy.quota().perMonth(), month.calls());
            UsagePolicy.Budget b = policy.budget();
            ToolUsage.BudgetUse budget = b == null ? null
                    : new ToolUsage.BudgetUse(b.currency(), b.costPerCall(), b.softLimit(), b.hardLimit(), month.spend(),
                            b.hardLimit() == null ? null
                                    : b.hardLimit().subtract(month.spend()).max(BigDecimal.ZERO).stripTrailingZeros(),
                            !"NONE".equals(month.alert()));
            return new ToolUsage(toolId, period.name(), period.start(), period.end(), total.calls(), total.succeeded(),
                    total.errors(), total.denied(), total.latencyP50Ms(), total.latencyP95Ms(), total.spend(), quota, budget,
                    perCaller, series);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the usage of " + toolId + ": " + e.getMessage(), e);
        }
    }

    public UsageOverview overview(UsagePeriod period) {
        try (Connection c = dataSource.getConnection()) {
            UsageFigures total = figures(c, "SELECT NULL, " + FIGURES + CALLS_IN_PERIOD, Key.NONE, period, null).get(0);
            List<UsageFigures> byTool = figures(c, "SELECT tool_id, " + FIGURES + CALLS_IN_PERIOD
                    + " GROUP BY tool_id ORDER BY tool_id", Key.TOOL, period, null);
            List<UsageFigures> byCaller = figures(c, "SELECT caller, " + FIGURES + CALLS_IN_PERIOD
                    + " GROUP BY caller ORDER BY caller", Key.CALLER, period, null);
            return new UsageOverview(period.name(), period.start(), period.end(), total.calls(), total.succeeded(),
                    total.errors(), total.denied(), total.latencyP50Ms(), total.latencyP95Ms(), total.spend(), byTool,
                    byCaller);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read usage: " + e.getMessage(), e);
        }
    }

    private static List<UsageFigures> figures(Connection c, String sql, Key key, UsagePeriod period, String toolId)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setTimestamp(1, Timestamp.from(period.from()));
            s.setTimestamp(2, Timestamp.from(period.to()));
            if (toolId != null) {
                s.setString(3, toolId);
            }
            List<UsageFigures> figures = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    String name = key == Key.TOOL || key == Key.CALLER ? r.getString(1) : null;
                    Instant at = key == Key.TIME ? r.getTimestamp(1).toInstant() : null;
                    figures.add(new UsageFigures(key == Key.TOOL ? name : null, key == Key.CALLER ? name : null, at,
                            r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5), (Double) r.getObject(6),
                            (Double) r.getObject(7), r.getBigDecimal(8).stripTrailingZeros()));
                }
            }
            return figures;
        }
    }

    private record Counter(long calls, BigDecimal spend, String alert) {
    }

    private static Counter counter(Connection c, String toolId, String kind, LocalDate start) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT calls - held_calls, spend - held_spend, soft_limit_alert FROM usage_period "
                + "WHERE tool_id = ? AND period_kind = ? AND period_start = ?")) {
            s.setString(1, toolId);
            s.setString(2, kind);
            s.setDate(3, Date.valueOf(start));
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? new Counter(r.getLong(1), r.getBigDecimal(2).stripTrailingZeros(), r.getString(3))
                        : new Counter(0, BigDecimal.ZERO, "NONE");
            }
        }
    }
}
