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
 *
 * <p>A set belongs to a session <em>and</em> the caller whose key loaded it ({@link #key}): the library does not
 * bind a session id to the key that opened it, so another caller presenting the id gets a set of its own, never
 * a look at or a hand on this one.
 */
@ApplicationScoped
public class ActiveToolSets {

    /** A session loads at most this many tools: the active set is for the few a task needs. */
    public static final int MAX_PER_SESSION = 32;

    private final ConcurrentMap<String, Set<String>> bySession = new ConcurrentHashMap<>();

    /** The key of {@code caller}'s set in {@code session} (a session id holds no space: base64 or a UUID). */
    public static String key(String session, String caller) {
        return session + " " + caller;
    }

    private static String sessionOf(String key) {
        return key.substring(0, key.indexOf(' '));
    }

    /** What changed: the ids added, and those refused because the set is full. */
    public record Change(List<String> changed, List<String> refused) {
    }

    public Change load(String key, List<String> toolIds) {
        Set<String> set = bySession.computeIfAbsent(key, s -> new LinkedHashSet<>());
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

    public List<String> unload(String key, List<String> toolIds) {
        Set<String> set = bySession.get(key);
        if (set == null) {
            return List.of();
        }
        synchronized (set) {
            return toolIds.stream().filter(set::remove).toList();
        }
    }

    public List<String> active(String key) {
        Set<String> set = bySession.get(key);
        if (set == null) {
            return List.of();
        }
        synchronized (set) {
            return List.copyOf(set);
        }
    }

    public boolean has(String key, String toolId) {
        Set<String> set = bySession.get(key);
        if (set == null) {
            return false;
        }
        synchronized (set) {
            return set.contains(toolId);
        }
    }

    /** Whether any session still has the tool loaded. */
    public boolean anyHas(String toolId) {
        return bySession.keySet().stream().anyMatch(key -> has(key, toolId));
    }

    /** Forgets the sessions that are gone; answers the tools no session has loaded any more. */
    public Set<String> forgetSessions(Predicate<String> gone) {
        Set<String> before = new java.util.HashSet<>();
        bySession.forEach((key, set) -> before.addAll(active(key)));
        bySession.keySet().removeIf(key -> gone.test(sessionOf(key)));
        before.removeIf(this::anyHas);
        return before;
    }
}
