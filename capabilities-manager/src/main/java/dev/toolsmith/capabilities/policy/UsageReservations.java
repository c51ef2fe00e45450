package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Quota per day and month and budget per month, reserved in PostgreSQL BEFORE a call, in one autocommitted
 * statement: it upserts the period rows with the call added ({@code calls + 1}, {@code spend + cost}) and
 * the policy's limits, and the table's check constraint refuses any total beyond a limit, so the
 * statement either counts the call in every period or fails and counts it nowhere. Concurrent callers
 * on any replica queue on the rows' locks, so the totals can never pass a limit: with a hard budget of
 * N calls, exactly N are admitted. Rows are locked in a fixed order (day, then month), so two
 * reservations never deadlock. Blocking JDBC: call it from a worker thread.
 */
@ApplicationScoped
public class UsageReservations {

    private static final String CHECK_VIOLATION = "23514";
    private static final String UPSERT_ROW = "(?, ?, ?, 1, ?, ?, ?)";
    private static final String UPSERT = "INSERT INTO usage_period "
            + "(tool_id, period_kind, period_start, calls, spend, call_limit, spend_limit) VALUES %s "
            + "ON CONFLICT (tool_id, period_kind, period_start) DO UPDATE "
            + "SET calls = usage_period.calls + 1, spend = usage_period.spend + EXCLUDED.spend, "
            + "call_limit = EXCLUDED.call_limit, spend_limit = EXCLUDED.spend_limit "
            + "RETURNING period_kind, calls, spend, soft_limit_alert";
    private static final String UPSERT_ONE = String.format(UPSERT, UPSERT_ROW);
    private static final String UPSERT_DAY_AND_MONTH = String.format(UPSERT, UPSERT_ROW + ", " + UPSERT_ROW);
    private static final String TOTALS = "SELECT period_kind, calls, spend FROM usage_period WHERE tool_id = ? "
            + "AND ((period_kind = 'DAY' AND period_start = ?) OR (period_kind = 'MONTH' AND period_start = ?))";
    private static final String MARK_ALERT_DUE = "UPDATE usage_period SET soft_limit_alert = 'DUE' "
            + "WHERE tool_id = ? AND period_kind = 'MONTH' AND period_start = ? AND soft_limit_alert = 'NONE'";
    private static final String GIVE_BACK = "UPDATE usage_period SET calls = calls - 1, spend = spend - ? "
            + "WHERE tool_id = ? AND period_kind = ? AND period_start = ?";

    private final DataSource dataSource;

    @Inject
    public UsageReservations(AgroalDataSource durable, PolicyStateDataSource state, PolicySettings settings) {
        this(settings.reservationCommit() == PolicySettings.CommitMode.ASYNC ? state.asyncCommit() : durable);
    }

    /** For the overhead benchmark, which runs without CDI. */
    public UsageReservations(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** A reservation, or the reason the call may not be made; and whether it crossed the budget's soft limit. */
    public sealed interface Result {
        record Reserved(Reservation reservation, boolean softLimitCrossed) implements Result {
        }

        record Refused(String reason) implements Result {
        }
    }

    public Result reserve(String toolId, UsagePolicy policy, Instant now) {
        UsagePolicy.Quota quota = policy.quota();
        UsagePolicy.Budget budget = policy.budget();
        boolean perDay = quota != null && quota.perDay() != null;
        boolean perMonth = (quota != null && quota.perMonth() != null)
                || (budget != null && (budget.hardLimit() != null || budget.softLimit() != null));
        if (!perDay && !perMonth) {
            return new Result.Reserved(Reservation.none(toolId), false);
        }
        BigDecimal cost = budget == null || budget.costPerCall() == null ? BigDecimal.ZERO : budget.costPerCall();
        LocalDate today = now.atOffset(ZoneOffset.UTC).toLocalDate();
        Reservation reservation = new Reservation(toolId, perDay ? today : null, perMonth ? today.withDayOfMonth(1) : null,
                cost);
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true); // the upsert is its own transaction
            }
            Totals month;
            try {
                month = upsert(connection, reservation, quota, budget);
            } catch (SQLException e) {
                if (!CHECK_VIOLATION.equals(e.getSQLState())) {
                    throw e;
                }
                return new Result.Refused(refusal(connection, reservation, quota, budget));
            }
            boolean crossed = month != null && budget != null && budget.softLimit() != null
                    && month.spend().compareTo(budget.softLimit()) >= 0 && "NONE".equals(month.softLimitAlert())
                    && markSoftLimitDue(connection, reservation);
            return new Result.Reserved(reservation, crossed);
        } catch (SQLException e) {
            throw new IllegalStateException("could not reserve quota/budget for " + toolId + ": " + e.getMessage(), e);
        }
    }

    /** Counts the call in its periods; returns the month's totals after it (null without a month row). */
    private static Totals upsert(Connection connection, Reservation reservation, UsagePolicy.Quota quota,
            UsagePolicy.Budget budget) throws SQLException {
        boolean both = reservation.day() != null && reservation.month() != null;
        try (PreparedStatement upsert = connection.prepareStatement(both ? UPSERT_DAY_AND_MONTH : UPSERT_ONE)) {
            int at = 1;
            if (reservation.day() != null) {
                at = bindRow(upsert, at, reservation, "DAY", reservation.day(), quota == null ? null : quota.perDay(), null);
            }
            if (reservation.month() != null) {
                bindRow(upsert, at, reservation, "MONTH", reservation.month(), quota == null ? null : quota.perMonth(),
                        budget == null ? null : budget.hardLimit());
            }
            Totals month = null;
            try (ResultSet rows = upsert.executeQuery()) {
                while (rows.next()) {
                    if ("MONTH".equals(rows.getString(1))) {
                        month = new Totals(rows.getLong(2), rows.getBigDecimal(3), rows.getString(4));
                    }
                }
            }
            return month;
        }
    }

    private static int bindRow(PreparedStatement statement, int at, Reservation reservation, String kind,
            LocalDate start, Long callLimit, BigDecimal spendLimit) throws SQLException {
        statement.setString(at, reservation.toolId());
        statement.setString(at + 1, kind);
        statement.setDate(at + 2, Date.valueOf(start));
        statement.setBigDecimal(at + 3, reservation.cost());
        statement.setObject(at + 4, callLimit, Types.BIGINT);
        statement.setBigDecimal(at + 5, spendLimit);
        return at + 6;
    }

    /** Only one reservation per month finds the notice still NONE and marks it due. */
    private static boolean markSoftLimitDue(Connection connection, Reservation reservation) throws SQLException {
        try (PreparedStatement mark = connection.prepareStatement(MARK_ALERT_DUE)) {
            mark.setString(1, reservation.toolId());
            mark.setDate(2, Date.valueOf(reservation.month()));
            return mark.executeUpdate() == 1;
        }
    }

    /** Which limit the refused call would have passed, in words, from the totals as they are now. */
    private static String refusal(Connection connection, Reservation reservation, UsagePolicy.Quota quota,
            UsagePolicy.Budget budget) throws SQLException {
        String toolId = reservation.toolId();
        long dayCalls = 0;
        long monthCalls = 0;
        BigDecimal spend = BigDecimal.ZERO;
        try (PreparedStatement totals = connection.prepareStatement(TOTALS)) {
            totals.setString(1, toolId);
            totals.setDate(2, Date.valueOf(reservation.day() != null ? reservation.day() : LocalDate.EPOCH));
            totals.setDate(3, Date.valueOf(reservation.month() != null ? reservation.month() : LocalDate.EPOCH));
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
        if (reservation.day() != null && quota.perDay() != null && dayCalls + 1 > quota.perDay()) {
            return "daily quota of " + quota.perDay() + " call" + (quota.perDay() == 1 ? "" : "s")
                    + " for " + toolId + " is used up (resets at 00:00 UTC)";
        }
        if (quota != null && quota.perMonth() != null && monthCalls + 1 > quota.perMonth()) {
            return "monthly quota of " + quota.perMonth() + " call" + (quota.perMonth() == 1 ? "" : "s")
                    + " for " + toolId + " is used up (resets on the 1st, UTC)";
        }
        if (budget != null && budget.hardLimit() != null) {
            return "monthly budget of " + money(budget.hardLimit(), budget) + " for " + toolId + " is spent ("
                    + money(spend, budget) + " used, a call costs " + money(reservation.cost(), budget) + ")";
        }
        // a concurrent give-back made room after the refusal: the caller may simply retry
        return "quota or budget of " + toolId + " was exhausted at the time of the call; retry";
    }

    /** Gives back what a call that was never sent had reserved. */
    public void release(Reservation reservation) {
        if (!reservation.holdsAnything()) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement giveBack = connection.prepareStatement(GIVE_BACK)) {
                if (reservation.day() != null) {
                    bindGiveBack(giveBack, reservation, "DAY", reservation.day());
                    giveBack.executeUpdate();
                }
                if (reservation.month() != null) {
                    bindGiveBack(giveBack, reservation, "MONTH", reservation.month());
                    giveBack.executeUpdate();
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not release the reservation of " + reservation.toolId() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void bindGiveBack(PreparedStatement statement, Reservation reservation, String kind, LocalDate start)
            throws SQLException {
        statement.setBigDecimal(1, reservation.cost());
        statement.setString(2, reservation.toolId());
        statement.setString(3, kind);
        statement.setDate(4, Date.valueOf(start));
    }

    private record Totals(long calls, BigDecimal spend, String softLimitAlert) {
    }

    static String money(BigDecimal amount, UsagePolicy.Budget budget) {
        String plain = amount.stripTrailingZeros().toPlainString();
        return budget.currency() == null ? plain : plain + " " + budget.currency();
    }
}
