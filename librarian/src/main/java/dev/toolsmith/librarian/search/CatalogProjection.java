package dev.toolsmith.librarian.search;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.catalog.CatalogChange;
import dev.toolsmith.librarian.catalog.CatalogVectorizer;
import dev.toolsmith.librarian.catalog.StoredTool;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * Keeps this replica's search index equal to the catalog: loaded from the database at start-up, then fed
 * by the {@code tool-catalog} topic (and by this replica's own commits, at once). An entry is applied only
 * when its revision is above the one held for the tool, so a replay from the start of the topic, a late
 * delivery or the echo of a change already applied locally change nothing.
 *
 * <p>Also holds, in memory, what search needs besides the index: each tool's allowed callers and the
 * namespaces and domains that exist (to refuse an unknown filter value). Search never touches the database.
 */
@ApplicationScoped
public class CatalogProjection {

    private static final Logger LOG = Logger.getLogger(CatalogProjection.class);

    private final ToolIndex index;
    private final CatalogVectorizer vectorizer;
    /** The revision applied per tool; kept after a local delete so older entries cannot bring it back. */
    private final Map<String, Long> revisions = new HashMap<>();
    private final Map<String, Set<String>> allowedCallers = new ConcurrentHashMap<>();
    private final Map<String, Integer> namespaces = new ConcurrentHashMap<>();
    private final Map<String, Integer> domains = new ConcurrentHashMap<>();
    private volatile boolean loaded;

    public CatalogProjection(ToolIndex index, CatalogVectorizer vectorizer) {
        this.index = index;
        this.vectorizer = vectorizer;
    }

    /** Applies the start-up snapshot in one index refresh and marks the index ready. */
    public synchronized void load(Collection<StoredTool> tools) {
        List<ToolIndex.IndexedTool> batch = new ArrayList<>(tools.size());
        List<CatalogEntry> accepted = new ArrayList<>(tools.size());
        for (StoredTool tool : tools) {
            if (isNewer(tool.entry())) {
                batch.add(new ToolIndex.IndexedTool(tool.entry().manifest(), tool.vectors(), status(tool.entry())));
                accepted.add(tool.entry());
            }
        }
        accepted.forEach(this::forgetFacets);
        index.upsertAll(batch);
        accepted.forEach(this::remember);
        loaded = true;
    }

    /** Applies a committed change of this replica. */
    public void apply(CatalogChange change) {
        if (change instanceof CatalogChange.Upserted upserted) {
            apply(upserted.entry());
        } else if (change instanceof CatalogChange.Removed removed) {
            remove(removed.toolId(), removed.revision());
        }
    }

    /** Applies an entry (from the topic or a local commit); false when it is not newer than what is held. */
    public synchronized boolean apply(CatalogEntry entry) {
        if (!isNewer(entry)) {
            return false;
        }
        ToolVectors vectors = vectorsOf(entry);
        forgetFacets(entry);
        index.upsertAll(List.of(new ToolIndex.IndexedTool(entry.manifest(), vectors, status(entry))));
        remember(entry);
        return true;
    }

    /**
     * Removes a tool. A local delete knows its revision and keeps it; a tombstone from the topic carries
     * none ({@code revision} null), and the key's order on the topic guarantees it follows the entries it
     * deletes.
     */
    public synchronized void remove(String toolId, Long revision) {
        if (toolId == null) {
            return;
        }
        if (revision != null) {
            Long held = revisions.get(toolId);
            if (held != null && held >= revision) {
                return;
            }
            revisions.put(toolId, revision);
        }
        index.get(toolId).ifPresent(this::forgetFacets);
        index.remove(toolId);
        allowedCallers.remove(toolId);
    }

    public boolean loaded() {
        return loaded;
    }

    public int size() {
        return index.size();
    }

    /** Whether {@code caller} may see a tool: the tool allows everyone, or names the caller. */
    public Predicate<ToolManifest> accessRule(String caller) {
        return tool -> {
            Set<String> allowed = allowedCallers.get(tool.id());
            return allowed == null || allowed.isEmpty() || (caller != null && allowed.contains(caller));
        };
    }

    public boolean knowsNamespace(String namespace) {
        return namespaces.containsKey(key(namespace));
    }

    public boolean knowsDomain(String domain) {
        return domains.containsKey(key(domain));
    }

    // ---------------------------------------------------------------------------------------------

    private boolean isNewer(CatalogEntry entry) {
        Long held = revisions.get(entry.toolId());
        return held == null || entry.revision() > held;
    }

    private ToolVectors vectorsOf(CatalogEntry entry) {
        if (entry.vectors() != null && vectorizer.modelId().equals(entry.vectorModel())) {
            try {
                return ToolVectors.fromBytes(Base64.getDecoder().decode(entry.vectors()));
            } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
                LOG.warnf("entry %s r%d carries unreadable vectors (%s): embedding it here", entry.toolId(),
                        entry.revision(), e.getMessage());
            }
        }
        return vectorizer.vectorizeNow(entry.manifest());
    }

    private void remember(CatalogEntry entry) {
        revisions.put(entry.toolId(), entry.revision());
        allowedCallers.put(entry.toolId(), Set.copyOf(entry.allowedCallers()));
        count(namespaces, entry.manifest().namespace(), 1);
        count(domains, entry.manifest().domain(), 1);
    }

    /** Uncounts the namespace and domain of the version about to be replaced, if any. */
    private void forgetFacets(CatalogEntry incoming) {
        index.get(incoming.toolId()).ifPresent(this::forgetFacets);
    }

    private void forgetFacets(ToolManifest held) {
        count(namespaces, held.namespace(), -1);
        count(domains, held.domain(), -1);
    }

    private static void count(Map<String, Integer> counts, String value, int delta) {
        if (value == null || value.isBlank()) {
            return;
        }
        counts.compute(key(value), (k, n) -> {
            int next = (n == null ? 0 : n) + delta;
            return next <= 0 ? null : next;
        });
    }

    private static String key(String value) {
        return value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    }

    private static PluginStatus status(CatalogEntry entry) {
        return entry.disabled() ? PluginStatus.DISABLED : PluginStatus.ENABLED;
    }
}
