package dev.toolsmith.capabilities.registry;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** Re-reads the table; call after a change is committed. */
    public Uni<Void> refresh() {
        return store.loadAll().invoke(this::replace).replaceWithVoid();
    }

    void replace(List<Plugin> plugins) {
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
