package dev.toolsmith.librarian.airlock;

import java.util.Locale;

/**
 * The {@code q} query parameter of the airlock's long lists: a case-insensitive "contains" match. The
 * text is bound as a parameter, with LIKE's own wildcards escaped, so {@code 100%} finds "100%" and not
 * everything starting with "100".
 */
public final class SearchText {

    static final int MAX_LENGTH = 200;

    private SearchText() {
    }

    /** The LIKE pattern for {@code q}, or null when there is nothing to search for. */
    public static String pattern(String q) {
        if (q == null || q.isBlank()) {
            return null;
        }
        String text = q.trim();
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("q: longer than " + MAX_LENGTH + " characters");
        }
        String escaped = text.toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return "%" + escaped + "%";
    }

    /** The HQL condition that {@code expression} contains the pattern bound as {@code :parameter}. */
    public static String contains(String expression, String parameter) {
        return "lower(" + expression + ") like :" + parameter + " escape '\\'";
    }
}
