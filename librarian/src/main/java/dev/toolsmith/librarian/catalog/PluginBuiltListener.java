package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.IdempotentConsumer;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.ApprovalSealing;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Catalogs the wrapper plugins the engineer built ({@code plugin-built}): a success indexes the plugin's
 * manifest (a new version when its content changed) with the allowed callers of its usage policy; a
 * failure is the airlock's business and changes nothing here. Only a build that carries the valid seal
 * of its approval is catalogued: anything else (a forged event, an internal plugin posing as a build, a
 * build of another call or policy than the approved one) is refused with an audit entry naming why.
 * Applied once per event id; a message that breaks its contract goes to {@code plugin-built.dlq}.
 */
@ApplicationScoped
public class PluginBuiltListener {

    static final String CONSUMER = "librarian-catalog-plugin-built";
    private static final Logger LOG = Logger.getLogger(PluginBuiltListener.class);

    private final IdempotentConsumer consumer;
    private final ToolCatalog catalog;
    private final LocalCatalogIndex index;
    private final ApprovalSealing approvals;
    private final AuditLog audit;

    public PluginBuiltListener(IdempotentConsumer consumer, ToolCatalog catalog, LocalCatalogIndex index,
            ApprovalSealing approvals, AuditLog audit) {
        this.consumer = consumer;
        this.catalog = catalog;
        this.index = index;
        this.approvals = approvals;
        this.audit = audit;
    }

    @Incoming("plugin-built-in")
    public Uni<Void> onPluginBuilt(byte[] raw) {
        AtomicReference<Optional<CatalogChange>> change = new AtomicReference<>(Optional.empty());
        return consumer.apply(CONSUMER, raw, PluginBuilt.class, (envelope, built) -> {
            if (!built.succeeded()) {
                return Uni.createFrom().voidItem();
            }
            if (!built.toolId().equals(built.plugin().id())) {
                throw new ContractViolation("/data/plugin/id", "field /data/plugin/id: '" + built.plugin().id()
                        + "' differs from toolId '" + built.toolId() + "'");
            }
            Optional<String> unsealed = approvals.refusal(built);
            Uni<Optional<String>> refusal = unsealed.isPresent() ? Uni.createFrom().item(unsealed)
                    : approvals.superseded(built);
            return refusal.chain(why -> {
                CatalogActor sender = CatalogActor.event(Topics.PLUGIN_BUILT, envelope);
                if (why.isPresent()) {
                    LOG.warnf("plugin-built: %s v%d from %s not catalogued: %s", built.toolId(),
                            built.version(), sender.name(), why.get());
                    return audit.record(sender.name(), AuditLog.Action.BUILD_REFUSED, "tool", built.toolId(),
                            "Refused a build of " + built.toolId() + " v" + built.version() + " (" + sender.through()
                                    + "): " + why.get(), null, null);
                }
                List<String> callers = built.policy() == null ? List.of() : built.policy().allowedCallers();
                return catalog.index(built.plugin(), callers, sender)
                        .invoke(outcome -> change.set(outcome.change())).replaceWithVoid();
            });
        }).call(() -> index.apply(change.get()));
    }
}
