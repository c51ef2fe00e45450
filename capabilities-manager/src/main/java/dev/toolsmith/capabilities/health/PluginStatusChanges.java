package dev.toolsmith.capabilities.health;

import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Changes a plugin's status and announces it, in one transaction: the plugin row (only when the status
 * really changes, so two replicas or an admin racing the worker announce it once), its health row, the
 * history, {@code PluginStatusChanged} on {@code plugin-status} (the librarian hides or shows the tool in
 * search) and a notification for admins. After the commit the registry re-reads that plugin, so this replica
 * stops (or resumes) serving the plugin at once; others follow on their refresh schedule.
 */
@ApplicationScoped
public class PluginStatusChanges {

    private static final Logger LOG = Logger.getLogger(PluginStatusChanges.class);

    /** Who asked for a change: the health worker re-enables only what it disabled itself. */
    public enum Actor {
        HEALTH,
        ADMIN
    }

    private final Outbox outbox;
    private final PluginRegistry registry;

    public PluginStatusChanges(Outbox outbox, PluginRegistry registry) {
        this.outbox = outbox;
        this.registry = registry;
    }

    /** True when the status changed (and was announced); false when it already was {@code status}. */
    public Uni<Boolean> change(String toolId, PluginStatus status, String reason, Actor actor, String changedBy) {
        return Panache.withTransaction(() -> apply(toolId, status, reason, actor, changedBy))
                .call(changed -> changed ? registry.refresh(toolId) : Uni.createFrom().voidItem())
                .invoke(changed -> {
                    if (changed) {
                        LOG.infof("plugin %s is now %s (%s, by %s)", toolId, status, reason, changedBy);
                    }
                });
    }

    /**
     * A newly approved and verified build lifts a disable by the health worker or a suspension (the
     * reviewed definition is what the suspension waited for); a plugin an admin disabled stays disabled.
     * Runs in the caller's transaction; the caller refreshes the registry. True when it was re-enabled.
     */
    public Uni<Boolean> enableForNewBuild(String toolId, int version) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT COALESCE(h.disabled_by, '') FROM plugin p LEFT JOIN plugin_health h ON h.tool_id = p.tool_id "
                        + "WHERE p.tool_id = :id AND p.status = 'DISABLED'", String.class)
                .setParameter("id", toolId).getResultList())
                .chain(disabledBy -> disabledBy.isEmpty() || Actor.ADMIN.name().equals(disabledBy.get(0))
                        ? Uni.createFrom().item(false)
                        : apply(toolId, PluginStatus.ENABLED, "version " + version + " was approved and verified",
                                Actor.HEALTH, "engineer"));
    }

    private Uni<Boolean> apply(String toolId, PluginStatus status, String reason, Actor actor, String changedBy) {
        // The health worker decides on a row it read before its probe: an admin may have disabled the plugin
        // since. Checked in the same statement, so the worker never re-enables what an admin disabled.
        String notAdminsDisable = actor == Actor.HEALTH && status == PluginStatus.ENABLED
                ? " AND NOT EXISTS (SELECT 1 FROM plugin_health h WHERE h.tool_id = plugin.tool_id "
                        + "AND h.disabled_by = 'ADMIN')"
                : "";
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE plugin SET status = :status, status_reason = :reason, updated_at = now() "
                        + "WHERE tool_id = :id AND status <> :status" + notAdminsDisable + " RETURNING tool_id",
                String.class)
                .setParameter("status", status.name())
                .setParameter("reason", status == PluginStatus.ENABLED ? null : reason)
                .setParameter("id", toolId)
                .getResultList()
                .chain(changed -> {
                    if (changed.isEmpty()) {
                        return adminOwnsDisable(toolId, status, actor).replaceWith(false);
                    }
                    return session.createNativeQuery(healthUpdate(status))
                            .setParameter("by", status == PluginStatus.DISABLED ? actor.name() : null)
                            .setParameter("id", toolId)
                            .executeUpdate()
                            .chain(() -> session.createNativeQuery("INSERT INTO plugin_status_history "
                                    + "(tool_id, status, reason, changed_by) VALUES (:id, :status, :reason, :by)")
                                    .setParameter("id", toolId)
                                    .setParameter("status", status.name())
                                    .setParameter("reason", reason)
                                    .setParameter("by", changedBy)
                                    .executeUpdate())
                            .chain(() -> announce(toolId, status, reason, actor, changedBy))
                            .replaceWith(true);
                }));
    }

    /**
     * An admin disabling a plugin the health worker had already disabled takes it over: it then stays
     * disabled until an admin enables it.
     */
    private Uni<Void> adminOwnsDisable(String toolId, PluginStatus status, Actor actor) {
        if (status != PluginStatus.DISABLED || actor != Actor.ADMIN) {
            return Uni.createFrom().voidItem();
        }
        return Panache.getSession().chain(session -> session.createNativeQuery(track(
                "disabled_by = 'ADMIN'", "'ADMIN'")).setParameter("id", toolId).executeUpdate()).replaceWithVoid();
    }

    private static String healthUpdate(PluginStatus status) {
        if (status == PluginStatus.DISABLED) {
            // keep the failure count (it explains the change); a fresh window judges the recovery
            return track("disabled_by = EXCLUDED.disabled_by, consecutive_successes = 0, window_since = now()",
                    "CAST(:by AS varchar)");
        }
        // re-enabled: counting starts again
        return track("disabled_by = NULL, consecutive_failures = 0, consecutive_successes = 0, window_since = now()",
                "CAST(:by AS varchar)");
    }

    /**
     * Updates the health row of a wrapped plugin, creating it when the worker has not tracked the plugin yet
     * (an admin may disable a plugin right after it was registered: who disabled it must not be lost).
     */
    private static String track(String updates, String disabledBy) {
        return "INSERT INTO plugin_health (tool_id, disabled_by) SELECT tool_id, " + disabledBy + " FROM plugin "
                + "WHERE tool_id = :id AND plugin_type = 'WRAPPED_HTTP' "
                + "ON CONFLICT (tool_id) DO UPDATE SET " + updates;
    }

    private Uni<Void> announce(String toolId, PluginStatus status, String reason, Actor actor, String changedBy) {
        Instant now = Instant.now();
        PluginStatusChanged event = new PluginStatusChanged(toolId, status, reason, changedBy, now);
        boolean disabled = status == PluginStatus.DISABLED;
        Notification notification = new Notification(UUID.randomUUID().toString(),
                disabled ? Notification.Kind.PLUGIN_DISABLED : Notification.Kind.PLUGIN_ENABLED,
                disabled && actor == Actor.HEALTH ? Notification.Severity.CRITICAL : Notification.Severity.INFO,
                "Plugin " + toolId + (disabled ? " disabled" : " enabled"),
                toolId + " was " + (disabled ? "disabled" : "enabled") + " by " + changedBy
                        + (reason == null ? "" : ": " + reason) + "."
                        + (disabled && actor == Actor.HEALTH ? " It is hidden from search and re-enabled after it recovers."
                                : ""),
                toolId, now);
        return outbox.append(Topics.PLUGIN_STATUS, toolId, event)
                .chain(() -> outbox.append(Topics.NOTIFICATIONS, notification.id(), notification))
                .replaceWithVoid();
    }
}
