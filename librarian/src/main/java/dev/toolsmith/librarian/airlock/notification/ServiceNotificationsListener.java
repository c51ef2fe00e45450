package dev.toolsmith.librarian.airlock.notification;

import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.eventing.EventingConfig;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Brings the alerts other services publish on {@code notifications} (the capabilities manager's budget
 * soft limits, re-enabled plugins and refused builds) into the admins' inbox, {@code GET /notifications}.
 * The librarian's own alerts are already stored where they are raised ({@link Notifier}), and a disabled
 * plugin already has its alert from {@code plugin-status} ({@link PluginStatusNotifications}); both are
 * skipped so nothing shows twice. A notification of an admin's change in another service (health
 * thresholds) is also filed in the audit log with who and before → after, in the same transaction.
 * Applied once per event id.
 */
@ApplicationScoped
public class ServiceNotificationsListener {

    static final String CONSUMER = "librarian-inbox-notifications";

    private final IdempotentConsumer consumer;
    private final AuditLog audit;
    private final String ownSource;

    public ServiceNotificationsListener(IdempotentConsumer consumer, AuditLog audit, EventingConfig eventing) {
        this.consumer = consumer;
        this.audit = audit;
        this.ownSource = eventing.eventSource();
    }

    @Incoming("service-notifications-in")
    public Uni<Void> onNotification(byte[] raw) {
        return consumer.apply(CONSUMER, raw, Notification.class, (envelope, alert) -> {
            if (ownSource.equals(envelope.source()) || alert.kind() == Notification.Kind.PLUGIN_DISABLED) {
                return Uni.createFrom().voidItem();
            }
            NotificationEntity row = new NotificationEntity();
            row.id = idOf(alert.id());
            row.kind = alert.kind().name();
            row.severity = alert.severity().name();
            row.title = alert.title().length() > 300 ? alert.title().substring(0, 299) + "…" : alert.title();
            row.message = alert.message();
            row.subjectId = alert.subjectId();
            row.createdAt = alert.createdAt().atOffset(ZoneOffset.UTC);
            return NotificationEntity.findById(row.id)
                    .chain(existing -> existing != null ? Uni.createFrom().voidItem() : row.persist().replaceWithVoid())
                    .call(() -> alert.kind() == Notification.Kind.HEALTH_THRESHOLDS_CHANGED
                            ? audit.record(alert.changedBy(), AuditLog.Action.HEALTH_THRESHOLDS_CHANGED, "tool",
                                    alert.subjectId(), alert.message(), alert.before(), alert.after())
                            : Uni.createFrom().voidItem());
        });
    }

    /** The sender's id when it is a UUID (they are), else a stable UUID derived from it. */
    private static UUID idOf(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException notUuid) {
            return UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
        }
    }
}
