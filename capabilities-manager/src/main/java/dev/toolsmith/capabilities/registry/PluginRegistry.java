package dev.toolsmith.capabilities.registry;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The registry as the hot path sees it: an immutable in-memory snapshot, looked up by verb (in its
 * normalised form, so {@code convertCurrency} and {@code CONVERT_CURRENCY} are one verb) and by tool
 * id. Replaced whole after each local change and on a schedule, so other replicas' changes arrive too.
 */
@ApplicationScoped
public class PluginRegistry {

    private static final Logger LOG = Logger.getLogger(PluginRegistry.class);

    private record Snapshot(Map<String, Plugin> byVerb, Map<String, Plugin> byToolId) {
        static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of());
    }

    private final PluginStore store;
    private volatile Snapshot snapshot = Snapshot.EMPTY;
    private final AtomicLong loadsStarted = new AtomicLong();
    private long appliedLoad; // guarded by this

    public PluginRegistry(PluginStore store) {
        this.store = store;
    }

    public Optional<Plugin> byVerb(String verb) {
        return Optional.ofNullable(snapshot.byVerb().get(VerbNormalizer.normalize(verb)));
    }

    public Optional<Plugin> byToolId(String toolId) {
        return Optional.ofNullable(snapshot.byToolId().get(toolId));
    }

    public Collection<Plugin> all() {
        return snapshot.byToolId().values();
    }

    /**
     * Re-reads the table; call after a change is committed. Refreshes may overlap (an admin's change, a build
     * event, the periodic refresher) and their reads can finish out of order: a read started earlier must never
     * replace the view of one started later, which saw every change the earlier one saw and possibly more.
     */
    public Uni<Void> refresh() {
        return Uni.createFrom().deferred(() -> {
            long load = loadsStarted.incrementAndGet();
            return store.loadAll().invoke(plugins -> replace(load, plugins));
        }).replaceWithVoid();
    }

    private synchronized void replace(long load, List<Plugin> plugins) {
        if (load < appliedLoad) {
            return; // a later read has already been applied
        }
        appliedLoad = load;
        Map<String, Plugin> byVerb = new HashMap<>();
        Map<String, Plugin> byToolId = new HashMap<>();
        for (Plugin plugin : plugins) {
            byToolId.put(plugin.toolId(), plugin);
            byVerb.put(VerbNormalizer.normalize(plugin.verb()), plugin);
        }
        Snapshot next = new Snapshot(Map.copyOf(byVerb), Map.copyOf(byToolId));
        if (next.byToolId().size() != snapshot.byToolId().size()) {
            LOG.infof("plugin registry holds %d plugins", next.byToolId().size());
        }
        snapshot = next;
    }
}
