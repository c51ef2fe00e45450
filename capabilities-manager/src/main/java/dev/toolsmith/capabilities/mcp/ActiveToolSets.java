package dev.toolsmith.capabilities.mcp;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Predicate;

/**
 * Each MCP session's active set: the catalog tools it loaded, which its {@code tools/list} shows as tools of
 * their own. Kept in this replica's memory, like the session itself (the Streamable HTTP session lives in the
 * instance that initialised it); forgotten when the session is gone.
 */
@ApplicationScoped
public class ActiveToolSets {

    /** A session loads at most this many tools: the active set is for the few a task needs. */
    public static final int MAX_PER_SESSION = 32;

    private final ConcurrentMap<String, Set<String>> bySession = new ConcurrentHashMap<>();

    /** What changed: the ids added, and those refused because the set is full. */
    public record Change(List<String> changed, List<String> refused) {
    }

    public Change load(String session, List<String> toolIds) {
        Set<String> set = bySession.computeIfAbsent(session, s -> new LinkedHashSet<>());
        List<String> added = new java.util.ArrayList<>();
        List<String> refused = new java.util.ArrayList<>();
        synchronized (set) {
            for (String id : toolIds) {
                if (set.contains(id)) {
                    continue;
                }
                if (set.size() >= MAX_PER_SESSION) {
                    refused.add(id);
                } else {
                    set.add(id);
                    added.add(id);
                }
            }
        }
        return new Change(added, refused);
    }

    public List<String> unload(String session, List<String> toolIds) {
        Set<String> set = bySession.get(session);
        if (set == null) {
            return List.of();
        }
        synchronized (set) {
            return toolIds.stream().filter(set::remove).toList();
        }
    }

    public List<String> active(String session) {
        Set<String> set = bySession.get(session);
        if (set == null) {
            return List.of();
        }
        synchronized (set) {
            return List.copyOf(set);
        }
    }

    public boolean has(String session, String toolId) {
        Set<String> set = bySession.get(session);
        if (set == null) {
            return false;
        }
        synchronized (set) {
            return set.contains(toolId);
        }
    }

    /** Whether any session still has the tool loaded. */
    public boolean anyHas(String toolId) {
        return bySession.keySet().stream().anyMatch(session -> has(session, toolId));
    }

    /** Forgets the sessions that are gone; answers the tools no session has loaded any more. */
    public Set<String> forgetSessions(Predicate<String> gone) {
        Set<String> before = new java.util.HashSet<>();
        bySession.forEach((session, set) -> before.addAll(active(session)));
        bySession.keySet().removeIf(gone);
        before.removeIf(this::anyHas);
        return before;
    }
}
