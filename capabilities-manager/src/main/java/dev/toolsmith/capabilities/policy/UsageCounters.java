package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import javax.sql.DataSource;

/**
 * The quota and budget counters of {@code usage_period} (a day row and a month row per tool), in single
 * autocommitted statements. {@code calls}/{@code spend} count everything drawn against the limits;
 * {@code held_calls}/{@code held_spend} the part of it replicas hold unused or have used without
 * settling yet, so what was really used is {@code calls - held_calls}. A draw upserts the period rows
 * with the units added and the policy's limits, and the table's check constraint refuses any total
 * beyond a limit: the statement either counts the units in every period or fails and counts them
 * nowhere. Concurrent draws on any replica queue on the rows' locks, in a fixed order (day, then month),
 * so they never deadlock. Blocking JDBC.
 */
final class UsageCounters {

    private static final String CHECK_VIOLATION = "23514";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String DRAW = "INSERT INTO usage_period (tool_id, period_kind, period_start, calls, spend, "
            + "held_calls, held_spend, call_limit, spend_limit) VALUES %s "
            + "ON CONFLICT (tool_id, period_kind, period_start) DO UPDATE "
            + "SET calls = usage_period.calls + EXCLUDED.calls, spend = usage_period.spend + EXCLUDED.spend, "
            + "held_calls = usage_period.held_calls + EXCLUDED.held_calls, "
            + "held_spend = usage_period.held_spend + EXCLUDED.held_spend, "
            + "call_limit = EXCLUDED.call_limit, spend_limit = EXCLUDED.spend_limit "
            + "RETURNING period_kind, calls, spend, soft_limit_alert, call_limit, spend_limit";
    private static final String DRAW_ONE = String.format(DRAW, ROW);
    private static final String DRAW_DAY_AND_MONTH = String.format(DRAW, ROW + ", " + ROW);
    private static final String SETTLE = "UPDATE usage_period SET calls = calls - ?, spend = spend - ?, "
            + "held_calls = held_calls - ?, held_spend = held_spend - ? "
            + "WHERE tool_id = ? AND period_kind = ? AND period_start = ?";
    private static final String TOTALS = "SELECT period_kind, calls, spend FROM usage_period WHERE tool_id = ? "
            + "AND ((period_kind = 'DAY' AND period_start = ?) OR (period_kind = 'MONTH' AND period_start = ?))";
    private static final String MARK_ALERT_DUE = "UPDATE usage_period SET soft_limit_alert = 'DUE' "
            + "WHERE tool_id = ? AND period_kind = 'MONTH' AND period_start = ? AND soft_limit_alert = 'NONE'";

    private final DataSource dataSource;

    UsageCounters(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The answer to a draw: the units were counted (with what is left under the limits), or why not. */
    sealed interface Draw {
        /**
         * {@code headroom}: calls that still fit under every limit after this draw (Long.MAX_VALUE without
         * limits); {@code monthSpend}: the month's counted spend after it (null without a month row).
         */
        record Counted(long headroom, BigDecimal monthSpend, boolean softLimitCrossed) implements Draw {
        }

        record Refused(String reason) implements Draw {
        }
    }

    /**
     * Counts {@code units} more calls (and their cost) in the reservation's periods, of which
     * {@code heldDelta} change the held part (units drawn minus use settled with this statement).
     */
    Draw draw(Reservation shape, UsagePolicy policy, long units, long heldDelta) {
        UsagePolicy.Quota quota = policy.quota();
        UsagePolicy.Budget budget = policy.budget();
        try (Connection connection = autocommitting()) {
            Upserted counted;
            try {
                counted = upsert(connection, shape, quota, budget, units, heldDelta);
            } catch (SQLException e) {
                if (!CHECK_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                return new Draw.Refused(refusal(connection, shape, quota, budget));
            }
            if (counted.monthSpend() != null && budget != null && budget.softLimit() != null
                    && counted.monthSpend().compareTo(budget.softLimit()) >= 0 && counted.alertStillNone()) {
                // only one draw per month finds the notice still NONE and marks it due
                return new Draw.Counted(counted.headroom(), counted.monthSpend(), markSoftLimitDue(connection, shape));
            }
            return new Draw.Counted(counted.headroom(), counted.monthSpend(), false);
        } catch (SQLException e) {
            throw new IllegalStateException("could not reserve quota/budget for " + shape.toolId() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Settles a lease's units: {@code unused} are given back (no longer counted), and they and
     * {@code used} leave the held part.
     */
    void settle(Reservation shape, long unused, long used) {
        if (unused == 0 && used == 0) {
            return;
        }
        BigDecimal cost = shape.cost();
        try (Connection connection = autocommitting(); PreparedStatement settle = connection.prepareStatement(SETTLE)) {
            for (String kind : new String[] {"DAY", "MONTH"}) {
                LocalDate start = kind.equals("DAY") ? shape.day() : shape.month();
                if (start == null) {
                    continue;
                }
                settle.setLong(1, unused);
                settle.setBigDecimal(2, cost.multiply(BigDecimal.valueOf(unused)));
                settle.setLong(3, unused + used);
                settle.setBigDecimal(4, cost.multiply(BigDecimal.valueOf(unused + used)));
                settle.setString(5, shape.toolId());
                settle.setString(6, kind);
                settle.setDate(7, Date.valueOf(start));
                settle.addBatch();
            }
            settle.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException("could not settle the usage counters of " + shape.toolId() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Takes back one call that was counted as used but never sent. */
    void giveBackUsed(Reservation shape) {
        settle(shape, 1, -1);
    }

    private Connection autocommitting() throws SQLException {
        Connection connection = dataSource.getConnection();
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true); // every statement here is its own transaction
        }
        return connection;
    }

    /** The rows after a draw: calls left under every limit, the month's spend, and whether its notice is NONE. */
    private record Upserted(long headroom, BigDecimal monthSpend, boolean alertStillNone) {
    }

    private static Upserted upsert(Connection connection, Reservation shape, UsagePolicy.Quota quota,
            UsagePolicy.Budget budget, long units, long heldDelta) throws SQLException {
        boolean both = shape.day() != null && shape.month() != null;
        try (PreparedStatement upsert = connection.prepareStatement(both ? DRAW_DAY_AND_MONTH : DRAW_ONE)) {
            int at = 1;
            if (shape.day() != null) {
                at = bindRow(upsert, at, shape, "DAY", shape.day(), units, heldDelta,
                        quota == null ? null : quota.perDay(), null);
            }
            if (shape.month() != null) {
                bindRow(upsert, at, shape, "MONTH", shape.month(), units, heldDelta,
                        quota == null ? null : quota.perMonth(), budget == null ? null : budget.hardLimit());
            }
            long headroom = Long.MAX_VALUE;
            BigDecimal monthSpend = null;
            boolean alertNone = false;
            try (ResultSet rows = upsert.executeQuery()) {
                while (rows.next()) {
                    long calls = rows.getLong(2);
                    BigDecimal spend = rows.getBigDecimal(3);
                    long callLimit = rows.getLong(5);
                    if (!rows.wasNull()) {
                        headroom = Math.min(headroom, callLimit - calls);
                    }
                    BigDecimal spendLimit = rows.getBigDecimal(6);
                    if (spendLimit != null && shape.cost().signum() > 0) {
                        headroom = Math.min(headroom, spendLimit.subtract(spend)
                                .divideToIntegralValue(shape.cost()).longValue());
                    }
                    if ("MONTH".equals(rows.getString(1))) {
                        monthSpend = spend;
                        alertNone = "NONE".equals(rows.getString(4));
                    }
                }
            }
            return new Upserted(Math.max(0, headroom), monthSpend, alertNone);
        }
    }

    private static int bindRow(PreparedStatement statement, int at, Reservation shape, String kind, LocalDate start,
            long units, long heldDelta, Long callLimit, BigDecimal spendLimit) throws SQLException {
        statement.setString(at, shape.toolId());
        statement.setString(at + 1, kind);
        statement.setDate(at + 2, Date.valueOf(start));
        statement.setLong(at + 3, units);
        statement.setBigDecimal(at + 4, shape.cost().multiply(BigDecimal.valueOf(units)));
        statement.setLong(at + 5, heldDelta);
        statement.setBigDecimal(at + 6, shape.cost().multiply(BigDecimal.valueOf(heldDelta)));
        statement.setObject(at + 7, callLimit, Types.BIGINT);
        statement.setBigDecimal(at + 8, spendLimit);
        return at + 9;
    }

    private static boolean markSoftLimitDue(Connection connection, Reservation shape) throws SQLException {
        try (PreparedStatement mark = connection.prepareStatement(MARK_ALERT_DUE)) {
            mark.setString(1, shape.toolId());
            mark.setDate(2, Date.valueOf(shape.month()));
            return mark.executeUpdate() == 1;
        }
    }

    /** Which limit the refused call would have passed, in words, from the totals as they are now. */
    private static String refusal(Connection connection, Reservation shape, UsagePolicy.Quota quota,
            UsagePolicy.Budget budget) throws SQLException {
        String toolId = shape.toolId();
        long dayCalls = 0;
        long monthCalls = 0;
        BigDecimal spend = BigDecimal.ZERO;
        try (PreparedStatement totals = connection.prepareStatement(TOTALS)) {
            totals.setString(1, toolId);
            totals.setDate(2, Date.valueOf(shape.day() != null ? shape.day() : LocalDate.EPOCH));
            totals.setDate(3, Date.valueOf(shape.month() != null ? shape.month() : LocalDate.EPOCH));
            try (ResultSet rows = totals.executeQuery()) {
                while (rows.next()) {
                    if ("DAY".equals(rows.getString(1))) {
                        dayCalls = rows.getLong(2);
                    } else {
                        monthCalls = rows.getLong(2);
                        spend = rows.getBigDecimal(3);
                    }
                }
            }
        }
        if (shape.day() != null && quota != null && quota.perDay() != null && dayCalls + 1 > quota.perDay()) {
            return "daily quota of " + quota.perDay() + " call" + (quota.perDay() == 1 ? "" : "s")
                    + " for " + toolId + " is used up (resets at 00:00 UTC)";
        }
        if (quota != null && quota.perMonth() != null && monthCalls + 1 > quota.perMonth()) {
            return "monthly quota of " + quota.perMonth() + " call" + (quota.perMonth() == 1 ? "" : "s")
                    + " for " + toolId + " is used up (resets on the 1st, UTC)";
        }
        if (budget != null && budget.hardLimit() != null && spend.add(shape.cost()).compareTo(budget.hardLimit()) > 0) {
            return "monthly budget of " + UsageReservations.money(budget.hardLimit(), budget) + " for " + toolId
                    + " is spent (" + UsageReservations.money(spend, budget) + " used, a call costs "
                    + UsageReservations.money(shape.cost(), budget) + ")";
        }
        // a concurrent give-back made room after the refusal: the caller may simply retry
        return "quota or budget of " + toolId + " was exhausted at the time of the call; retry";
    }
}
