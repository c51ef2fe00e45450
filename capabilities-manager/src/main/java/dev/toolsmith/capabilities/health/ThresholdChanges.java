package dev.toolsmith.capabilities.health;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Sets a wrapped plugin's own health thresholds and announces the change, in one transaction: the
 * overrides on its health row and a {@link Notification.Kind#HEALTH_THRESHOLDS_CHANGED} notification
 * naming who changed what (thresholds in force before and after). The librarian files it in the admins'
 * inbox and in its audit log, where every other admin action is; so a change is announced exactly when it
 * is stored.
 */
@ApplicationScoped
public class ThresholdChanges {

    private static final TypeReference<Map<String, Object>> STATE = new TypeReference<>() {
    };

    private final Outbox outbox;
    private final ObjectMapper mapper;

    public ThresholdChanges(Outbox outbox, ContractCodec codec) {
        this.outbox = outbox;
        this.mapper = codec.mapper();
    }

    /**
     * Stores {@code overrides} (a null field: the configured default) for {@code toolId}, whose health row
     * must exist, and announces the change made by {@code changedBy}, with the thresholds in force before and
     * after ({@code inForce} turns overrides into thresholds). The row is locked while its old overrides are
     * read, so two admins saving at once each announce what they really replaced. Saving the overrides already
     * stored changes nothing and announces nothing. A shorter interval applies to the next probe already.
     *
     * @return the thresholds in force afterwards, or empty when the plugin has no health row
     */
    public Uni<Optional<HealthThresholds>> change(String toolId, ThresholdOverrides overrides,
            Function<ThresholdOverrides, HealthThresholds> inForce, String changedBy) {
        return Panache.withTransaction(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT failures_to_disable, successes_to_enable, error_rate_threshold, error_rate_window, "
                        + "interval_seconds FROM plugin_health WHERE tool_id = :id FOR UPDATE", Object[].class)
                .setParameter("id", toolId)
                .getResultList()
                .chain(rows -> {
                    if (rows.isEmpty()) {
                        return Uni.createFrom().item(Optional.<HealthThresholds>empty());
                    }
                    ThresholdOverrides stored = overridesOf(rows.get(0));
                    if (stored.equals(overrides)) {
                        return Uni.createFrom().item(Optional.of(inForce.apply(stored)));
                    }
                    HealthThresholds before = inForce.apply(stored);
                    HealthThresholds after = inForce.apply(overrides);
                    return store(session, toolId, overrides)
                            .chain(() -> {
                                Notification announcement = announcement(toolId, before, after, changedBy);
                                return outbox.append(Topics.NOTIFICATIONS, announcement.id(), announcement);
                            })
                            .replaceWith(Optional.of(after));
                })));
    }

    private static Uni<Integer> store(org.hibernate.reactive.mutiny.Mutiny.Session session, String toolId,
            ThresholdOverrides overrides) {
        return session.createNativeQuery(
                "UPDATE plugin_health SET failures_to_disable = CAST(:failures AS int), "
                        + "successes_to_enable = CAST(:successes AS int), "
                        + "error_rate_threshold = CAST(:rate AS double precision), "
                        + "error_rate_window = CAST(:window AS int), interval_seconds = CAST(:interval AS int), "
                        + "next_probe_at = CASE WHEN CAST(:interval AS int) IS NULL THEN next_probe_at "
                        + "ELSE LEAST(next_probe_at, now() + make_interval(secs => CAST(:interval AS int))) END "
                        + "WHERE tool_id = :id")
                .setParameter("failures", overrides.failuresToDisable())
                .setParameter("successes", overrides.successesToEnable())
                .setParameter("rate", overrides.errorRateThreshold())
                .setParameter("window", overrides.errorRateWindow())
                .setParameter("interval", overrides.intervalSeconds())
                .setParameter("id", toolId)
                .executeUpdate();
    }

    private static ThresholdOverrides overridesOf(Object[] row) {
        return new ThresholdOverrides(integer(row[0]), integer(row[1]),
                row[2] == null ? null : ((Number) row[2]).doubleValue(), integer(row[3]), integer(row[4]));
    }

    private static Integer integer(Object column) {
        return column == null ? null : ((Number) column).intValue();
    }

    private Notification announcement(String toolId, HealthThresholds before, HealthThresholds after,
            String changedBy) {
        Map<String, Object> was = mapper.convertValue(before, STATE);
        Map<String, Object> now = mapper.convertValue(after, STATE);
        List<String> changes = new ArrayList<>();
        now.forEach((field, value) -> {
            if (!Objects.equals(was.get(field), value)) {
                changes.add(field + " " + was.get(field) + " → " + value);
            }
        });
        String what = changes.isEmpty() ? "overrides replaced, the thresholds in force are the same"
                : String.join(", ", changes);
        return new Notification(UUID.randomUUID().toString(), Notification.Kind.HEALTH_THRESHOLDS_CHANGED,
                Notification.Severity.INFO, "Health thresholds of " + toolId + " changed",
                "The health thresholds of " + toolId + " were changed by " + changedBy + ": " + what + ".", toolId,
                Instant.now(), changedBy, was, now);
    }
}
