package dev.toolsmith.librarian.airlock.discovery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The APIs listed by directory sources (APIs.guru {@code list.json}), as of their last on-demand scan:
 * title, description, categories and the spec URL. Find-or-build looks here for APIs worth ingesting
 * when the queue holds nothing for a gap. Ranked by word overlap: embedding thousands of directory
 * entries would cost minutes, and only the few best are ever ingested (and then embedded).
 */
public class DirectoryCatalog {

    /** One API of a directory. */
    public record DirectoryApi(String key, String title, String description, List<String> categories, String specUrl) {
    }

    /** A directory API and the directory source it came from. */
    public record Match(UUID sourceId, DirectoryApi api, double score) {
    }

    private final Map<UUID, List<DirectoryApi>> bySource = new ConcurrentHashMap<>();

    public void replace(UUID sourceId, List<DirectoryApi> apis) {
        bySource.put(sourceId, List.copyOf(apis));
    }

    public void forget(UUID sourceId) {
        bySource.remove(sourceId);
    }

    public boolean isLoaded(UUID sourceId) {
        return bySource.containsKey(sourceId);
    }

    public List<Match> best(String text, int limit) {
        Set<String> wanted = words(text);
        if (wanted.isEmpty()) {
            return List.of();
        }
        List<Match> matches = new ArrayList<>();
        bySource.forEach((source, apis) -> {
            for (DirectoryApi api : apis) {
                Set<String> have = words(api.title() + " " + api.description() + " " + String.join(" ", api.categories())
                        + " " + api.key());
                long overlap = wanted.stream().filter(have::contains).count();
                if (overlap > 0) {
                    matches.add(new Match(source, api, overlap / Math.sqrt(Math.max(1, have.size()))));
                }
            }
        });
        matches.sort(Comparator.comparingDouble(Match::score).reversed());
        return matches.subList(0, Math.min(limit, matches.size()));
    }

    private static final Set<String> STOP = Set.of("the", "a", "an", "of", "to", "for", "and", "or", "in", "on", "by",
            "with", "api", "get", "set", "list", "is", "from", "this", "that", "v1", "v2", "v3");

    static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        if (text == null) {
            return words;
        }
        String spaced = text.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        for (String word : spaced.split("[^a-z0-9]+")) {
            if (word.length() > 2 && !STOP.contains(word)) {
                words.add(word.endsWith("s") && word.length() > 3 ? word.substring(0, word.length() - 1) : word);
            }
        }
        return words;
    }
}
