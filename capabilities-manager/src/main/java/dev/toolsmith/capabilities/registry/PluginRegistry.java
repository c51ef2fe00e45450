package dev.toolsmith.capabilities.registry;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The registry as the hot path sees it: an immutable in-memory snapshot, looked up by verb (in its
 * normalised form, so {@code convertCurrency} and {@code CONVERT_CURRENCY} are one verb) and by tool
 * id. A local change to one plugin re-reads that plugin's row only ({@link #refresh(String)}); the whole
 * table is re-read at start and on a schedule ({@link #refresh()}), so other replicas' changes arrive too.
 *
 * <p>Reads may overlap (an admin's change, build events, the periodic refresher) and finish out of order. Every
 * read takes a ticket when it starts; a read started later saw every change an earlier one saw, so an earlier
 * read never replaces what a later one put in the view: a full read is dropped if a later full read was applied,
 * and keeps the plugins that later one-plugin reads brought; a one-plugin read is dropped if a later full read or
 * a later read of the same plugin was applied.
 */
@ApplicationScoped
public class PluginRegistry {

    private static final Logger LOG = Logger.getLogger(PluginRegistry.class);

    private record Snapshot(Map<String, Plugin> byVerb, Map<String, Plugin> byToolId) {
        static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of());
    }

    private final PluginStore store;
    private volatile Snapshot snapshot = Snapshot.EMPTY;
    private final AtomicLong readsStarted = new AtomicLong();
    private long appliedFullRead; // guarded by this
    /** Tool id → ticket of the latest one-plugin read applied after {@link #appliedFullRead}. Guarded by this. */
    private final Map<String, Long> appliedPluginReads = new HashMap<>();

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

    /** Re-reads the whole table: at start, on a schedule, and after changes whose plugins are not known here. */
    public Uni<Void> refresh() {
        return Uni.createFrom().deferred(() -> {
            long read = readsStarted.incrementAndGet();
            return store.loadAll().invoke(plugins -> replace(read, plugins));
        }).replaceWithVoid();
    }

    /**
     * Re-reads one plugin's row and applies it to the view (added, changed, or gone); call after a change to that
     * plugin is committed. Costs one row, not the table: registering thousands of plugins one event at a time
     * stays linear.
     */
    public Uni<Void> refresh(String toolId) {
        return Uni.createFrom().deferred(() -> {
            long read = readsStarted.incrementAndGet();
            return store.load(toolId).invoke(plugin -> apply(read, toolId, plugin.orElse(null)));
        }).replaceWithVoid();
    }

    private synchronized void replace(long read, List<Plugin> plugins) {
        if (read < appliedFullRead) {
            return; // a later full read has already been applied
        }
        appliedFullRead = read;
        Map<String, Plugin> byVerb = new HashMap<>();
        Map<String, Plugin> byToolId = new HashMap<>();
        for (Plugin plugin : plugins) {
            byToolId.put(plugin.toolId(), plugin);
            byVerb.put(VerbNormalizer.normalize(plugin.verb()), plugin);
        }
        // one-plugin reads started after this one saw newer rows of their plugins: theirs stay
        Snapshot current = snapshot;
        for (Iterator<Map.Entry<String, Long>> it = appliedPluginReads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Long> newer = it.next();
            if (newer.getValue() < read) {
                it.remove();
            } else {
                put(byVerb, byToolId, newer.getKey(), current.byToolId().get(newer.getKey()));
            }
        }
        install(byVerb, byToolId, true);
    }

    private synchronized void apply(long read, String toolId, Plugin plugin) {
        if (read < appliedFullRead || read < appliedPluginReads.getOrDefault(toolId, 0L)) {
            return; // a later read already brought this plugin's row (or its absence)
        }
        appliedPluginReads.put(toolId, read);
        Map<String, Plugin> byVerb = new HashMap<>(snapshot.byVerb());
        Map<String, Plugin> byToolId = new HashMap<>(snapshot.byToolId());
        put(byVerb, byToolId, toolId, plugin);
        install(byVerb, byToolId, false);
    }

    /** Puts {@code plugin} (null: none) under {@code toolId}, dropping the verb its previous row held. */
    private static void put(Map<String, Plugin> byVerb, Map<String, Plugin> byToolId, String toolId, Plugin plugin) {
        Plugin previous = plugin == null ? byToolId.remove(toolId) : byToolId.put(toolId, plugin);
        if (previous != null) {
            String verb = VerbNormalizer.normalize(previous.verb());
            if (byVerb.get(verb) == previous) { // the verb may already belong to another plugin's newer row
                byVerb.remove(verb);
            }
        }
        if (plugin != null) {
            byVerb.put(VerbNormalizer.normalize(plugin.verb()), plugin);
        }
    }

    private void install(Map<String, Plugin> byVerb, Map<String, Plugin> byToolId, boolean fullRead) {
        int before = snapshot.byToolId().size();
        snapshot = new Snapshot(Collections.unmodifiableMap(byVerb), Collections.unmodifiableMap(byToolId));
        int after = byToolId.size();
        // while a catalog registers one plugin at a time, a line per thousand rather than per plugin
        if (after != before && (fullRead || after % 1000 == 0)) {
            LOG.infof("plugin registry holds %d plugins", after);
        }
    }
}
