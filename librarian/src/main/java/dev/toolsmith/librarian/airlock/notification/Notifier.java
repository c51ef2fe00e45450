package dev.toolsmith.librarian.airlock.notification;

import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Raises admin notifications: stored for {@code GET /notifications} and published on
 * {@code notifications} through the outbox. Call it inside the transaction of the change it reports.
 */
@ApplicationScoped
public class Notifier {

    private final Outbox outbox;

    public Notifier(Outbox outbox) {
        this.outbox = outbox;
    }

    public Uni<Void> raise(Notification.Kind kind, Notification.Severity severity, String title, String message,
            String subjectId) {
        NotificationEntity row = new NotificationEntity();
        row.id = UUID.randomUUID();
        row.kind = kind.name();
        row.severity = severity.name();
        row.title = title.length() > 300 ? title.substring(0, 299) + "…" : title;
        row.message = message;
        row.subjectId = subjectId;
        row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        Notification event = new Notification(row.id.toString(), kind, severity, row.title, message, subjectId,
                row.createdAt.toInstant());
        return row.persist().chain(() -> outbox.append(Topics.NOTIFICATIONS, row.id.toString(), event))
                .replaceWithVoid();
    }
}
