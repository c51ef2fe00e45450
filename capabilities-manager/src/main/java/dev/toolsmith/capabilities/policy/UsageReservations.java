package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import io.agroal.api.AgroalDataSource;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Quota per day and month and budget per month, reserved BEFORE a call against counters in PostgreSQL
 * that every replica shares ({@link UsageCounters}): the counters never pass a limit, so with a hard
 * budget of N calls at most N are ever made, however many replicas and callers race.
 *
 * <p>Far from its limits a tool's calls do not each pay a round trip: a replica draws a block of calls
 * at once ({@link PolicyLeases#unitsPerDraw()} at most, and at most 1/16 of what is left under the
 * limits, so one replica can never sit on a large share of it), hands them out locally, and tops the block
 * up in the background when half of it is gone. Blocks stop short of the budget's soft limit, so the
 * call that crosses it draws alone and raises the notice. Near a limit every call draws for itself, as
 * without blocks. A replica settles what it used every {@link PolicyLeases#window()} and gives back what
 * a block still holds when its tool has been idle that long, when its period ends, and on shutdown; a
 * replica that crashes leaves its unused units counted until the period ends (calls are lost, never
 * gained). Blocking JDBC: call it from a worker thread.
 */
@ApplicationScoped
public class UsageReservations {

    private static final Logger LOG = Logger.getLogger(UsageReservations.class);

    /** A block is at most this fraction of the calls left under the limits. */
    private static final long HEADROOM_SHARE = 16;

    private final UsageCounters counters;
    private final PolicyLeases leasing;
    private final Map<LeaseKey, Lease> leases = new ConcurrentHashMap<>();

    @Inject
    public UsageReservations(AgroalDataSource durable, PolicyStateDataSource state, PolicySettings settings,
            PolicyLeases leasing) {
        this(settings.reservationCommit() == PolicySettings.CommitMode.ASYNC ? state.asyncCommit() : durable, leasing);
    }

    /** For the overhead benchmark, which runs without CDI. */
    public UsageReservations(DataSource dataSource, PolicyLeases leasing) {
        this.counters = new UsageCounters(dataSource);
        this.leasing = leasing;
        leasing.every(this::settleDue);
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
        LeaseKey key = new LeaseKey(toolId, perDay ? today : null, perMonth ? today.withDayOfMonth(1) : null, cost,
                quota, budget);
        while (true) {
            Lease lease = leases.computeIfAbsent(key, k -> new Lease(k, policy, System.nanoTime()));
            if (lease.units.take(System.nanoTime())) {
                topUpIfLow(lease);
                return new Result.Reserved(lease.reservation, false);
            }
            Result drawn = drawForCall(lease);
            if (drawn != null) {
                return drawn;
            }
            // the lease settled and closed meanwhile: the next one starts from the shared counters
        }
    }

    /** Gives back the unit of a call that was refused before anything was sent. */
    public void release(Reservation reservation) {
        if (reservation.lease() == null || reservation.lease().putBack()) {
            return;
        }
        counters.giveBackUsed(reservation); // its lease settled the call as used meanwhile
    }

    /** A call found no unit held: draw a block (or one unit) for it, one draw at a time per lease. */
    private Result drawForCall(Lease lease) {
        synchronized (lease) {
            if (lease.units.isClosed()) {
                return null;
            }
            if (lease.units.take(System.nanoTime())) {
                return new Result.Reserved(lease.reservation, false);
            }
            long block = lease.nextBlock(leasing.unitsPerDraw());
            long used = lease.units.settleUse();
            try {
                UsageCounters.Draw draw = counters.draw(lease.reservation, lease.policy, block, block - 1 - used);
                if (draw instanceof UsageCounters.Draw.Refused && block > 1) {
                    block = 1; // the block no longer fits; the call itself may
                    draw = counters.draw(lease.reservation, lease.policy, 1, -used);
                }
                if (draw instanceof UsageCounters.Draw.Refused refused) {
                    lease.units.unsettle(used);
                    lease.headroom = 0;
                    return new Result.Refused(refused.reason());
                }
                UsageCounters.Draw.Counted counted = (UsageCounters.Draw.Counted) draw;
                lease.learn(counted);
                lease.units.drewAndTookOne(block, System.nanoTime());
                return new Result.Reserved(lease.reservation, counted.softLimitCrossed());
            } catch (RuntimeException e) {
                lease.units.unsettle(used);
                throw e;
            }
        }
    }

    private void topUpIfLow(Lease lease) {
        long block = lease.nextBlock(leasing.unitsPerDraw());
        if (block > 1 && lease.units.startTopUp(block / 2)) {
            leasing.run(() -> topUp(lease));
        }
    }

    private void topUp(Lease lease) {
        synchronized (lease) {
            long block = lease.nextBlock(leasing.unitsPerDraw());
            if (block <= 1 || lease.units.isClosed()) {
                lease.units.topUpFailed();
                return;
            }
            long used = lease.units.settleUse();
            try {
                UsageCounters.Draw draw = counters.draw(lease.reservation, lease.policy, block, block - used);
                if (draw instanceof UsageCounters.Draw.Counted counted) {
                    // a crossing here (another replica's draws moved the spend) is announced by BudgetAlerts' sweep
                    lease.learn(counted);
                    lease.units.toppedUp(block, System.nanoTime());
                    return;
                }
                lease.headroom = 0; // near a limit: each call draws for itself from now on
            } catch (RuntimeException e) {
                LOG.debugf(e, "topping up the quota/budget units of %s failed; calls draw for themselves",
                        lease.reservation.toolId());
            }
            lease.units.unsettle(used);
            lease.units.topUpFailed();
        }
    }

    /** Settles what busy leases used; closes (and gives back) leases idle for a window or of a past period. */
    void settleDue() {
        long idleSince = System.nanoTime() - leasing.window().toNanos();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        for (Map.Entry<LeaseKey, Lease> entry : leases.entrySet()) {
            Lease lease = entry.getValue();
            if (lease.isOf(today) && !lease.units.idleSince(idleSince)) {
                if (lease.units.hasUnsettledUse()) {
                    long used = lease.units.settleUse();
                    try {
                        counters.settle(lease.reservation, 0, used);
                    } catch (RuntimeException e) {
                        lease.units.unsettle(used);
                        LOG.warnf("settling the usage of %s failed (retried): %s", lease.reservation.toolId(), e.getMessage());
                    }
                }
            } else if (leases.remove(entry.getKey(), lease)) {
                close(lease);
            }
        }
    }

    /** Gives back every unit held; the service calls it on shutdown. */
    @PreDestroy
    public void closeAll() {
        for (Lease lease : leases.values()) {
            leases.remove(lease.key, lease);
            close(lease);
        }
    }

    private void close(Lease lease) {
        synchronized (lease) {
            DrawnUnits.Remainder rest = lease.units.close();
            try {
                counters.settle(lease.reservation, rest.unused(), rest.used());
            } catch (RuntimeException e) {
                LOG.warnf("could not give back %d unused and settle %d used calls of %s (they stay counted until the "
                        + "period ends): %s", rest.unused(), rest.used(), lease.reservation.toolId(), e.getMessage());
            }
        }
    }

    /** One set of limits of one tool in one day and month: a changed policy draws under a new key. */
    private record LeaseKey(String toolId, LocalDate day, LocalDate month, BigDecimal cost, UsagePolicy.Quota quota,
            UsagePolicy.Budget budget) {
    }

    /** The units drawn under one key and what the last draw said about the room left. Guarded by its monitor. */
    private static final class Lease {
        final LeaseKey key;
        final UsagePolicy policy;
        final DrawnUnits units;
        final Reservation reservation;
        /** Calls left under every limit after the last draw; -1 before the first. */
        volatile long headroom = -1;
        volatile BigDecimal monthSpend;

        Lease(LeaseKey key, UsagePolicy policy, long nowNanos) {
            this.key = key;
            this.policy = policy;
            this.units = new DrawnUnits(nowNanos);
            this.reservation = new Reservation(key.toolId(), key.day(), key.month(), key.cost(), units);
        }

        void learn(UsageCounters.Draw.Counted counted) {
            headroom = counted.headroom();
            monthSpend = counted.monthSpend();
        }

        boolean isOf(LocalDate today) {
            return (key.day() == null || key.day().equals(today))
                    && (key.month() == null || key.month().equals(today.withDayOfMonth(1)));
        }

        /** How many calls the next draw takes: 1 until the room left is known, near a limit and before the soft limit. */
        long nextBlock(long unitsPerDraw) {
            long room = headroom;
            if (room < 0) {
                return 1;
            }
            long block = Math.min(unitsPerDraw, room / HEADROOM_SHARE);
            UsagePolicy.Budget budget = key.budget();
            BigDecimal spend = monthSpend;
            if (budget != null && budget.softLimit() != null && key.cost().signum() > 0 && spend != null
                    && spend.compareTo(budget.softLimit()) < 0) {
                // calls that keep the spend below the soft limit; the one that reaches it draws alone
                long belowSoft = budget.softLimit().subtract(spend).divide(key.cost(), 0, RoundingMode.CEILING)
                        .longValue() - 1;
                block = Math.min(block, belowSoft);
            }
            return Math.max(1, block);
        }
    }

    static String money(BigDecimal amount, UsagePolicy.Budget budget) {
        String plain = amount.stripTrailingZeros().toPlainString();
        return budget.currency() == null ? plain : plain + " " + budget.currency();
    }
}
