package dev.toolsmith.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Words of identifiers for lexical matching: splits snake_case, camelCase, kebab-case, dotted and slashed
 * names and letter/digit boundaries ({@code getV2Users} → {@code get v 2 users}), and can also keep each
 * identifier whole, lower-cased ({@code getv2users}), so an exact identifier in a query still matches as
 * one rare word. {@link dev.toolsmith.contracts.tool.VerbNormalizer} is the display form (it keeps {@code v2} together).
 */
public final class IdentifierWords {

    /** Compiled once: {@code String.split("\\s+")} would compile it for every text split. */
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private IdentifierWords() {
    }

    /**
     * {@code text} with every identifier-like word split into words (letters' case kept); with
     * {@code keepRaw}, each word that split into several parts is also appended whole, lower-cased and
     * without separators, after its parts.
     */
    public static String split(String text, boolean keepRaw) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (String token : WHITESPACE.split(text)) {
            if (token.isEmpty()) {
                continue;
            }
            List<String> parts = parts(token);
            for (String p : parts) {
                append(out, p);
            }
            if (keepRaw && parts.size() > 1) {
                String whole = String.join("", parts).toLowerCase(Locale.ROOT);
                append(out, whole);
            }
        }
        return out.toString();
    }

    /** The parts of one whitespace-free token. */
    static List<String> parts(String token) {
        List<String> parts = new ArrayList<>(4);
        StringBuilder cur = new StringBuilder();
        int n = token.length();
        for (int i = 0; i < n; i++) {
            char c = token.charAt(i);
            if (c == '_' || c == '-' || c == '.' || c == '/' || c == ':') {
                flush(cur, parts);
                continue;
            }
            if (!Character.isLetterOrDigit(c)) {
                cur.append(c); // other punctuation (quotes, brackets) is left to the analyser, as before
                continue;
            }
            if (cur.length() > 0) {
                char prev = token.charAt(i - 1);
                boolean hump = Character.isUpperCase(c) && Character.isLowerCase(prev);
                boolean acronymEnd = Character.isUpperCase(c) && Character.isUpperCase(prev) && i + 1 < n
                        && Character.isLowerCase(token.charAt(i + 1));
                boolean digitEdge = Character.isLetter(prev) && Character.isDigit(c)
                        || Character.isDigit(prev) && Character.isLetter(c);
                if (hump || acronymEnd || digitEdge) {
                    flush(cur, parts);
                }
            }
            cur.append(c);
        }
        flush(cur, parts);
        return parts;
    }

    private static void flush(StringBuilder cur, List<String> parts) {
        if (cur.length() > 0) {
            parts.add(cur.toString());
            cur.setLength(0);
        }
    }

    private static void append(StringBuilder out, String word) {
        if (out.length() > 0) {
            out.append(' ');
        }
        out.append(word);
    }
}
