package dev.toolsmith.search;

import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A tool's words as the confidence evidence compares them with a query ({@link InputOverlap}): its verb and name
 * words (the weak ones left out), and the words of its parameter names and of its required ones. Split once, when
 * the tool is indexed: split per query instead, for the hundred candidates a search gives evidence for, they took
 * half a millisecond of a plan step's search (2026-11-29). Words are interned, so the many tools that share a word
 * share one string.
 */
record ToolWords(Set<String> name, List<Set<String>> parameters, List<Set<String>> required) {

    static ToolWords of(ToolManifest tool) {
        Set<String> name = InputOverlap.words(String.join("_",
                tool.verb() == null ? "" : tool.verb(), tool.name() == null ? tool.id() : tool.name()));
        name.removeAll(InputOverlap.WEAK);
        return new ToolWords(interned(name),
                interned(InputOverlap.wordsOf(InputOverlap.parameterNames(tool.inputSchema()))),
                interned(InputOverlap.requiredWords(tool.inputSchema())));
    }

    /** The share of the tool's verb and name words that are among {@code queryWords}; 0 for a tool without any. */
    double nameCover(Set<String> queryWords) {
        if (name.isEmpty()) {
            return 0;
        }
        int said = 0;
        for (String w : name) {
            said += queryWords.contains(w) ? 1 : 0;
        }
        return (double) said / name.size();
    }

    private static Set<String> interned(Set<String> words) {
        List<String> out = new ArrayList<>(words.size());
        for (String w : words) {
            out.add(w.intern());
        }
        return Set.copyOf(out);
    }

    private static List<Set<String>> interned(List<Set<String>> lists) {
        List<Set<String>> out = new ArrayList<>(lists.size());
        for (Set<String> words : lists) {
            out.add(interned(words));
        }
        return List.copyOf(out);
    }
}
