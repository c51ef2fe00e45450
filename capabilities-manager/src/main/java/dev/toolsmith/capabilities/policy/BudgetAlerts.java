package dev.toolsmith.capabilities.policy;

import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.eventing.ReactiveBridge;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Announces budgets whose soft limit was crossed. The reservation that crosses it marks the month's row
 * {@code DUE} (exactly one does, under the row lock); this class turns each DUE row into a
 * {@code BUDGET_SOFT_LIMIT} notification, flipping it to {@code SENT} in the same transaction as the
 * outbox row, so each crossing is announced once even with several replicas and after a crash.
 */
@ApplicationScoped
public class BudgetAlerts {

    private static final Logger LOG = Logger.getLogger(BudgetAlerts.class);

    private final Outbox outbox;
    private final PluginRegistry registry;
    private final PoliciesInForce policies;
    private final AtomicBoolean running = new AtomicBoolean();

    public BudgetAlerts(Outbox outbox, PluginRegistry registry, PoliciesInForce policies) {
        this.outbox = outbox;
        this.registry = registry;
        this.policies = policies;
    }

    /** Called right after a crossing commits: announce now, off the caller's path. */
    void announceSoon() {
        Infrastructure.getDefaultWorkerPool().execute(this::announceDueQuietly);
    }

    /** Catches crossings whose announcement a crash interrupted. */
    @Scheduled(every = "${toolsmith.policy.alert-sweep:30s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            delayed = "5s")
    void sweep() {
        announceDueQuietly();
    }

    private void announceDueQuietly() {
        if (!running.compareAndSet(false, true)) {
            return; // one drain at a time per replica; the row flip keeps replicas from doubling
        }
        try {
            int sent = ReactiveBridge.await(this::announceDue);
            if (sent > 0) {
                LOG.infof("announced %d budget soft-limit crossing(s)", sent);
            }
        } catch (RuntimeException e) {
            LOG.warnf("budget soft-limit notifications not sent yet (retried by the sweep): %s", e.toString());
        } finally {
            running.set(false);
        }
    }

    private record Due(String toolId, String month, BigDecimal spend) {
    }

    /** Flips every DUE row to SENT and appends its notification, in one transaction. */
    public Uni<Integer> announceDue() {
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE usage_period SET soft_limit_alert = 'SENT' WHERE soft_limit_alert = 'DUE' "
                        + "RETURNING tool_id, to_char(period_start, 'YYYY-MM'), spend", Object[].class)
                .getResultList())
                .map(rows -> rows.stream().map(r -> new Due((String) r[0], (String) r[1], (BigDecimal) r[2])).toList())
                .chain(due -> Multi.createFrom().iterable(due)
                        .onItem().transformToUniAndConcatenate(this::append)
                        .collect().asList()
                        .map(List::size)));
    }

    private Uni<Void> append(Due due) {
        UsagePolicy.Budget budget = registry.byToolId(due.toolId()).map(policies::of).map(UsagePolicy::budget)
                .orElse(null);
        String spent = budget == null ? due.spend().stripTrailingZeros().toPlainString()
                : UsageReservations.money(due.spend(), budget);
        String limits = budget == null ? ""
                : " (soft limit " + (budget.softLimit() == null ? "none" : UsageReservations.money(budget.softLimit(), budget))
                        + (budget.hardLimit() == null ? "" : ", hard limit " + UsageReservations.money(budget.hardLimit(), budget))
                        + ")";
        Notification notification = new Notification(UUID.randomUUID().toString(), Notification.Kind.BUDGET_SOFT_LIMIT,
                Notification.Severity.WARNING, "Budget soft limit crossed: " + due.toolId(),
                due.toolId() + " has spent " + spent + " in " + due.month() + limits + ".", due.toolId(), Instant.now());
        return outbox.append(Topics.NOTIFICATIONS, notification.id(), notification).replaceWithVoid();
    }
}
