package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Follows plugin availability ({@code plugin-status}): DISABLED hides a tool from search, ENABLED shows it
 * again; DEGRADED keeps it visible (it still works, slowly or sometimes). Applied once per event id; a
 * message that breaks its contract goes to {@code plugin-status.dlq}.
 */
@ApplicationScoped
public class PluginStatusListener {

    static final String CONSUMER = "librarian-catalog-plugin-status";
    private static final Logger LOG = Logger.getLogger(PluginStatusListener.class);

    private final IdempotentConsumer consumer;
    private final ToolCatalog catalog;
    private final LocalCatalogIndex index;

    public PluginStatusListener(IdempotentConsumer consumer, ToolCatalog catalog, LocalCatalogIndex index) {
        this.consumer = consumer;
        this.catalog = catalog;
        this.index = index;
    }

    @Incoming("plugin-status-in")
    public Uni<Void> onStatus(byte[] raw) {
        AtomicReference<Optional<CatalogChange>> change = new AtomicReference<>(Optional.empty());
        return consumer.apply(CONSUMER, raw, PluginStatusChanged.class, (envelope, event) -> {
            ToolStatus status = switch (event.status()) {
                case DISABLED -> ToolStatus.DISABLED;
                case ENABLED -> ToolStatus.ACTIVE;
                case DEGRADED, RETIRED -> null; // a retirement took the tool out of the catalog already
            };
            if (status == null) {
                return Uni.createFrom().voidItem();
            }
            CatalogActor by = CatalogActor.changedBy(event.changedBy(), Topics.PLUGIN_STATUS, envelope);
            return catalog.setStatus(event.toolId(), status, by, event.reason()).invoke(result -> {
                if (result.isEmpty()) {
                    LOG.debugf("plugin-status %s for %s changed nothing (unknown tool or same status)",
                            event.status(), event.toolId());
                }
                change.set(result);
            }).replaceWithVoid();
        }).call(() -> index.apply(change.get()));
    }
}
