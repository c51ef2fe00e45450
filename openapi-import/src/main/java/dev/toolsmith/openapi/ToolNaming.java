package dev.toolsmith.openapi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Verbs, tool names and ids for the operations of one document, unique within it. A verb is the
 * operationId in VERB_CASE ({@code getPetById} → {@code GET_PET_BY_ID}), else method and path
 * ({@code GET /pets/{petId}} → {@code GET_PETS_BY_PET_ID}). A name is the verb in snake case within
 * the 64 characters LLM tool APIs allow ({@code ^[a-zA-Z0-9_-]{1,64}$}); a long one keeps its start and
 * gets a short hash of the whole so two long names stay apart.
 */
final class ToolNaming {

    static final int MAX_NAME = 64;
    static final int MAX_VERB = 100;

    private final Set<String> verbs = new HashSet<>();
    private final Set<String> names = new HashSet<>();

    String verb(String operationId, String method, String path) {
        List<String> words = operationId == null || operationId.isBlank() ? pathWords(method, path) : words(operationId);
        if (words.isEmpty()) {
            words = pathWords(method, path);
        }
        String verb = String.join("_", words).toUpperCase(Locale.ROOT);
        if (!Character.isLetter(verb.charAt(0))) {
            verb = "OP_" + verb;
        }
        verb = fit(verb, MAX_VERB);
        return unique(verb, verbs, MAX_VERB);
    }

    String name(String verb) {
        return unique(fit(verb.toLowerCase(Locale.ROOT), MAX_NAME), names, MAX_NAME);
    }

    static String id(String namespace, String name) {
        String space = slug(namespace);
        if (space.length() > 120) {
            space = space.substring(0, 120);
        }
        return (space.isEmpty() ? "api" : space) + ":" + name;
    }

    /** Lower-case letters, digits, dots and dashes; starts with a letter or digit. */
    static String slug(String text) {
        if (text == null) {
            return "";
        }
        String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("-{2,}", "-")
                .replaceAll("^[-.]+|[-.]+$", "");
        return slug;
    }

    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char[] chars = text.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            char c = chars[i];
            if (!Character.isLetterOrDigit(c) || c > 127) {
                flush(current, words);
                continue;
            }
            if (current.length() > 0) {
                char prev = chars[i - 1];
                boolean lowerToUpper = Character.isUpperCase(c) && (Character.isLowerCase(prev) || Character.isDigit(prev));
                boolean acronymEnd = Character.isUpperCase(c) && Character.isUpperCase(prev) && i + 1 < chars.length
                        && Character.isLowerCase(chars[i + 1]);
                if (lowerToUpper || acronymEnd) {
                    flush(current, words);
                }
            }
            current.append(c);
        }
        flush(current, words);
        return words;
    }

    private static List<String> pathWords(String method, String path) {
        List<String> words = new ArrayList<>();
        words.add(method.toUpperCase(Locale.ROOT));
        for (String segment : path.split("/")) {
            if (segment.isBlank()) {
                continue;
            }
            if (segment.startsWith("{") && segment.endsWith("}")) {
                words.add("BY");
                words.addAll(words(segment.substring(1, segment.length() - 1)));
            } else {
                words.addAll(words(segment));
            }
        }
        return words;
    }

    private static void flush(StringBuilder current, List<String> words) {
        if (current.length() > 0) {
            words.add(current.toString());
            current.setLength(0);
        }
    }

    private static String fit(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        String hash = shortHash(text);
        return text.substring(0, max - hash.length() - 1).replaceAll("_+$", "") + "_" + hash;
    }

    private static String unique(String candidate, Set<String> taken, int max) {
        String chosen = candidate;
        for (int n = 2; !taken.add(chosen); n++) {
            String suffix = "_" + n;
            String base = candidate.length() + suffix.length() > max ? candidate.substring(0, max - suffix.length())
                    : candidate;
            chosen = base + suffix;
        }
        return chosen;
    }

    static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
