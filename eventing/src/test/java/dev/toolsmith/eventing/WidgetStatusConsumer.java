package dev.toolsmith.eventing;

import dev.toolsmith.contracts.build.PluginStatusChanged;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/** Applies status events to widgets, counting applications so tests can see duplicates. */
@ApplicationScoped
public class WidgetStatusConsumer {

    private final IdempotentConsumer consumer;

    public WidgetStatusConsumer(IdempotentConsumer consumer) {
        this.consumer = consumer;
    }

    @Incoming("widgets-in")
    public Uni<Void> onStatus(byte[] raw) {
        return consumer.apply("widget-status", raw, PluginStatusChanged.class,
                (envelope, status) -> Widget.<Widget>findById(status.toolId()).chain(existing -> {
                    Widget widget = existing != null ? existing : new Widget();
                    widget.id = status.toolId();
                    widget.status = status.status().name();
                    widget.appliedCount++;
                    return widget.persist();
                }).replaceWithVoid());
    }
}
