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
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Quota per day and month and budget per month, reserved in PostgreSQL BEFORE a call: one transaction
 * upserts the period rows with the call added ({@code calls + 1}, {@code spend + cost}), which locks them
 * until commit, checks the new totals against the limits and rolls back when one is exceeded. Concurrent
 * callers on any replica queue on the row lock, so the totals can never pass a limit: with a hard budget
 * of N calls, exactly N are admitted. Rows are locked in a fixed order (day, then month) so two
 * reservations never deadlock. Blocking JDBC: call it from a worker thread.
 */
@ApplicationScoped
public class UsageReservations {

    private static final String UPSERT = "INSERT INTO usage_period (tool_id, period_kind, period_start, calls, spend) "
            + "VALUES (?, ?, ?, 1, ?) ON CONFLICT (tool_id, period_kind, period_start) DO UPDATE "
            + "SET calls = usage_period.calls + 1, spend = usage_period.spend + EXCLUDED.spend "
            + "RETURNING calls, spend, soft_limit_alert";
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
        LocalDate day = now.atOffset(ZoneOffset.UTC).toLocalDate();
        LocalDate month = day.withDayOfMonth(1);
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                Result result = reserve(connection, toolId, quota, budget, perDay ? day : null, perMonth ? month : null, cost);
                if (result instanceof Result.Reserved) {
                    connection.commit();
                } else {
                    connection.rollback();
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not reserve quota/budget for " + toolId + ": " + e.getMessage(), e);
        }
    }

    private Result reserve(Connection connection, String toolId, UsagePolicy.Quota quota, UsagePolicy.Budget budget,
            LocalDate day, LocalDate month, BigDecimal cost) throws SQLException {
        if (day != null) {
            Totals totals = upsert(connection, toolId, "DAY", day, cost);
            if (totals.calls() > quota.perDay()) {
                return new Result.Refused("daily quota of " + quota.perDay() + " call" + (quota.perDay() == 1 ? "" : "s")
                        + " for " + toolId + " is used up (resets at 00:00 UTC)");
            }
        }
        if (month == null) {
            return new Result.Reserved(new Reservation(toolId, day, null, cost), false);
        }
        Totals totals = upsert(connection, toolId, "MONTH", month, cost);
        if (quota != null && quota.perMonth() != null && totals.calls() > quota.perMonth()) {
            return new Result.Refused("monthly quota of " + quota.perMonth() + " call" + (quota.perMonth() == 1 ? "" : "s")
                    + " for " + toolId + " is used up (resets on the 1st, UTC)");
        }
        if (budget != null && budget.hardLimit() != null && totals.spend().compareTo(budget.hardLimit()) > 0) {
            BigDecimal spentBefore = totals.spend().subtract(cost);
            return new Result.Refused("monthly budget of " + money(budget.hardLimit(), budget) + " for " + toolId
                    + " is spent (" + money(spentBefore, budget) + " used, a call costs " + money(cost, budget) + ")");
        }
        boolean crossed = false;
        if (budget != null && budget.softLimit() != null && totals.spend().compareTo(budget.softLimit()) >= 0
                && "NONE".equals(totals.softLimitAlert())) {
            // the row is locked by this transaction: exactly one reservation per month sees it still NONE
            try (PreparedStatement mark = connection.prepareStatement(MARK_ALERT_DUE)) {
                mark.setString(1, toolId);
                mark.setDate(2, Date.valueOf(month));
                crossed = mark.executeUpdate() == 1;
            }
        }
        return new Result.Reserved(new Reservation(toolId, day, month, cost), crossed);
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

    private static Totals upsert(Connection connection, String toolId, String kind, LocalDate start, BigDecimal cost)
            throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            upsert.setString(1, toolId);
            upsert.setString(2, kind);
            upsert.setDate(3, Date.valueOf(start));
            upsert.setBigDecimal(4, cost);
            try (ResultSet row = upsert.executeQuery()) {
                row.next();
                return new Totals(row.getLong(1), row.getBigDecimal(2), row.getString(3));
            }
        }
    }

    static String money(BigDecimal amount, UsagePolicy.Budget budget) {
        String plain = amount.stripTrailingZeros().toPlainString();
        return budget.currency() == null ? plain : plain + " " + budget.currency();
    }
}
