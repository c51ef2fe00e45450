package dev.toolsmith.librarian.airlock.notification;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Tells admins when a plugin is disabled ({@code plugin-status} DISABLED: failing health checks, or a
 * suspension after its definition changed). The catalog hides it from search on its own consumer.
 */
@ApplicationScoped
public class PluginStatusNotifications {

    static final String CONSUMER = "librarian-airlock-plugin-status";

    private final IdempotentConsumer consumer;
    private final Notifier notifier;

    public PluginStatusNotifications(IdempotentConsumer consumer, Notifier notifier) {
        this.consumer = consumer;
        this.notifier = notifier;
    }

    @Incoming("airlock-plugin-status-in")
    public Uni<Void> onStatus(byte[] raw) {
        return consumer.apply(CONSUMER, raw, PluginStatusChanged.class, (envelope, event) -> {
            if (event.status() != PluginStatus.DISABLED) {
                return Uni.createFrom().voidItem();
            }
            return notifier.raise(Notification.Kind.PLUGIN_DISABLED, Notification.Severity.CRITICAL,
                    "Plugin " + event.toolId() + " is disabled",
                    (event.reason() == null ? "No reason given." : event.reason())
                            + (event.changedBy() == null ? "" : " (by " + event.changedBy() + ")"),
                    event.toolId());
        });
    }
}
