package dev.toolsmith.capabilities.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.eventing.EventingConfig;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps the registry in step with the platform: wrapped HTTP plugins arrive on {@code plugin-built}
 * (the engineer built and verified them; failed builds are not registered), and {@code plugin-status}
 * enables and disables plugins. Both are applied once per event (idempotent consumer). A successful build
 * without the valid seal of its approval ({@link ApprovedBuilds}) is not registered: the admins are told
 * in the event's transaction, and then the event fails so its channel sends it to {@code plugin-built.dlq}
 * with the reason.
 */
@ApplicationScoped
public class PluginEventsListener {

    private static final Logger LOG = Logger.getLogger(PluginEventsListener.class);

    private final IdempotentConsumer consumer;
    private final PluginStore store;
    private final PluginRegistry registry;
    private final ObjectMapper mapper;
    private final NewVerifiedBuild newBuilds;
    private final ApprovedBuilds approvedBuilds;
    /** This service's CloudEvents source: a status event from it is already in the database. */
    private final String ownSource;

    public PluginEventsListener(IdempotentConsumer consumer, PluginStore store, PluginRegistry registry,
            ContractCodec codec, NewVerifiedBuild newBuilds, ApprovedBuilds approvedBuilds, EventingConfig eventing) {
        this.ownSource = eventing.eventSource();
        this.consumer = consumer;
        this.store = store;
        this.registry = registry;
        this.mapper = codec.mapper();
        this.newBuilds = newBuilds;
        this.approvedBuilds = approvedBuilds;
    }

    @Incoming("plugin-built-in")
    public Uni<Void> onPluginBuilt(byte[] raw) {
        AtomicReference<String> refused = new AtomicReference<>();
        AtomicReference<String> toolId = new AtomicReference<>();
        return consumer.apply("capabilities-plugin-built", raw, PluginBuilt.class, (envelope, built) -> {
            toolId.set(built.toolId());
            if (!built.succeeded()) {
                return register(built, envelope);
            }
            return refusalOf(built).chain(refusal -> {
                if (refusal.isPresent()) {
                    refused.set(built.toolId() + " v" + built.version() + " not registered: it " + refusal.get());
                    LOG.warnf("plugin-built: %s (event %s from %s)", refused.get(), envelope.id(), envelope.source());
                    return approvedBuilds.notifyRefused(built, envelope.id(), envelope.source(), refusal.get());
                }
                return register(built, envelope).call(() -> store.recordApprovedVersion(built.toolId(), built.version()));
            });
        }).invoke(() -> {
            if (refused.get() != null) { // after the commit of the alert: the channel dead-letters the event
                throw new ContractViolation("/data/approval", "field /data/approval: " + refused.get());
            }
        }).call(() -> refresh(toolId.get()));
    }

    @Incoming("plugin-status-in")
    public Uni<Void> onPluginStatus(byte[] raw) {
        AtomicReference<String> toolId = new AtomicReference<>();
        return consumer.apply("capabilities-plugin-status", raw, PluginStatusChanged.class, (envelope, change) -> {
            toolId.set(change.toolId());
            return setStatus(envelope, change);
        }).call(() -> refresh(toolId.get()));
    }

    /**
     * The event's plugin re-read alone: a whole-table read per event made registering a large catalog slow down as
     * it grew. An event applied before (a redelivery, so its plugin is unknown here) re-reads the table, in case
     * the first delivery's commit was not followed by its refresh.
     */
    private Uni<Void> refresh(String toolId) {
        return toolId == null ? registry.refresh() : registry.refresh(toolId);
    }

    /**
     * Why a successful build may not register: no valid seal of its approval, or the seal of an approval older
     * than the one in force (a replayed event would bring back that approval's call and looser policy).
     */
    private Uni<Optional<String>> refusalOf(PluginBuilt built) {
        Optional<String> unsealed = approvedBuilds.refusal(built);
        if (unsealed.isPresent()) {
            return Uni.createFrom().item(unsealed);
        }
        return store.approvedVersion(built.toolId()).map(inForce -> inForce.filter(v -> v > built.version())
                .map(v -> "is a build of approval version " + built.version() + ", older than version " + v
                        + " in force (a replayed event)"));
    }

    private Uni<Void> register(PluginBuilt built, EventEnvelope envelope) {
        ToolManifest manifest = built.plugin();
        if (!built.succeeded() || manifest == null) {
            LOG.infof("plugin-built: %s v%d failed its build (%s); not registered", built.toolId(), built.version(),
                    built.failureReason());
            return Uni.createFrom().voidItem();
        }
        if (manifest.source() == ToolSourceType.INTERNAL || !manifest.isWrappedHttp()) {
            return Uni.createFrom().voidItem(); // internal plugins register at start, never from an event
        }
        String hash = manifest.contentHash() != null ? manifest.contentHash() : ContentHash.of(manifest, mapper);
        int version = Math.max(1, built.version());
        Plugin plugin = new Plugin(built.toolId(), manifest.verb(), PluginType.WRAPPED_HTTP, PluginStatus.ENABLED, null,
                version, hash, manifest.withVersion(version, hash),
                built.policy() == null ? null : mapper.valueToTree(built.policy()));
        return store.holderOfVerb(manifest.verb()).chain(holder -> {
            if (holder.isPresent() && !holder.get().equals(built.toolId())) {
                // The review refuses such clashes; one that slips through (two approvals at once) must still
                // reach an admin, not only this log: the catalog would otherwise list a tool nothing runs.
                String clash = "wants verb " + manifest.verb() + ", which " + holder.get() + " already serves";
                LOG.warnf("plugin-built: %s %s; not registered", built.toolId(), clash);
                return approvedBuilds.notifyRefused(built, envelope.id(), envelope.source(), clash);
            }
            return store.upsertIfChanged(plugin, version).invoke(changed -> changed.ifPresentOrElse(
                    stored -> LOG.infof("registered wrapped plugin %s (%s) v%d", stored.toolId(), stored.verb(),
                            stored.version()),
                    () -> LOG.debugf("plugin-built: %s unchanged", built.toolId())))
                    // same content, maybe new limits: the policy of the latest approval is the one in force
                    .chain(changed -> changed.isPresent() ? Uni.createFrom().voidItem()
                            : store.updatePolicy(built.toolId(), plugin.policy()).invoke(updated -> {
                                if (updated) {
                                    LOG.infof("plugin-built: %s keeps its content; its new usage policy is in force",
                                            built.toolId());
                                }
                            }).replaceWithVoid())
                    .chain(() -> newBuilds.registered(built.toolId(), version));
        });
    }

    private Uni<Void> setStatus(EventEnvelope envelope, PluginStatusChanged change) {
        if (change.status() != PluginStatus.RETIRED && ownSource.equals(envelope.source())) {
            // PluginStatusChanges wrote this change in the transaction that queued the event, in the database every
            // replica shares; writing it again here would undo a newer change made since (an admin's enable right
            // after a disable read as DISABLED until the enable's own event came round). Only the registry reloads.
            return Uni.createFrom().voidItem();
        }
        if (change.status() == PluginStatus.RETIRED) {
            // Retired for good: forgotten, so its verb is free for the next approved tool (a disabled one keeps it).
            return store.forget(change.toolId()).invoke(found -> {
                if (found) {
                    LOG.infof("plugin %s retired and forgotten (%s)", change.toolId(), change.reason());
                }
            }).replaceWithVoid();
        }
        return store.setStatus(change.toolId(), change.status(), change.reason()).invoke(found -> {
            if (found) {
                LOG.infof("plugin %s is now %s%s", change.toolId(), change.status(),
                        change.reason() == null ? "" : " (" + change.reason() + ")");
            } else {
                LOG.debugf("plugin-status for %s, which is not registered here", change.toolId());
            }
        }).replaceWithVoid();
    }
}
