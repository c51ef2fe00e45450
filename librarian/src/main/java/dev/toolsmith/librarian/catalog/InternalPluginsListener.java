package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Catalogs the capabilities manager's own internal plugins, announced on {@code internal-plugins}. Only
 * internal manifests are taken, and only without an HTTP binding: an external tool can never enter the
 * catalog this way, so the one way in for those stays an approval (its sealed build on
 * {@code plugin-built}). Anything else goes to {@code internal-plugins.dlq} with the reason.
 */
@ApplicationScoped
public class InternalPluginsListener {

    static final String CONSUMER = "librarian-catalog-internal-plugins";

    private final IdempotentConsumer consumer;
    private final ToolCatalog catalog;
    private final LocalCatalogIndex index;

    public InternalPluginsListener(IdempotentConsumer consumer, ToolCatalog catalog, LocalCatalogIndex index) {
        this.consumer = consumer;
        this.catalog = catalog;
        this.index = index;
    }

    @Incoming("internal-plugins-in")
    public Uni<Void> onAnnouncement(byte[] raw) {
        AtomicReference<Optional<CatalogChange>> change = new AtomicReference<>(Optional.empty());
        return consumer.apply(CONSUMER, raw, PluginBuilt.class, (envelope, announced) -> {
            if (!announced.succeeded()) {
                return Uni.createFrom().voidItem();
            }
            if (announced.plugin().source() != ToolSourceType.INTERNAL || announced.plugin().isWrappedHttp()) {
                throw new ContractViolation("/data/plugin/source", "field /data/plugin: only internal plugins without"
                        + " an HTTP binding are announced on internal-plugins; " + announced.plugin().id()
                        + " is " + announced.plugin().source() + " and enters the catalog only through approval");
            }
            if (!announced.toolId().equals(announced.plugin().id())) {
                throw new ContractViolation("/data/plugin/id", "field /data/plugin/id: '" + announced.plugin().id()
                        + "' differs from toolId '" + announced.toolId() + "'");
            }
            return catalog.index(announced.plugin(), List.of(), CatalogActor.event(Topics.INTERNAL_PLUGINS, envelope))
                    .invoke(outcome -> change.set(outcome.change())).replaceWithVoid();
        }).call(() -> index.apply(change.get()));
    }
}
