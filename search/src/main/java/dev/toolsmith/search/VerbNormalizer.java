package dev.toolsmith.search;

import java.util.Locale;

/**
 * Turns identifiers into words so lexical and dense matching see language: {@code CONVERT_CURRENCY},
 * {@code convertCurrency}, {@code convert-currency} and {@code convert.currency} all become
 * {@code "convert currency"}; {@code getHTTPResponse} becomes {@code "get http response"}.
 */
public final class VerbNormalizer {

    private VerbNormalizer() {
    }

    /** A verb or tool name as lower-case words separated by single spaces; "" for null or blank. */
    public static String normalize(String identifier) {
        if (identifier == null || identifier.isBlank()) {
            return "";
        }
        return splitIdentifiers(identifier).toLowerCase(Locale.ROOT);
    }

    /**
     * Splits every identifier-like word inside free text at camelCase humps, acronym ends, underscores,
     * hyphens, dots, slashes and colons, keeping the letters' case. Other text is left alone apart from
     * collapsing whitespace.
     */
    public static String splitIdentifiers(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || Character.isWhitespace(c)) {
                appendSpace(out);
                continue;
            }
            if (i > 0 && Character.isUpperCase(c)) {
                char prev = text.charAt(i - 1);
                boolean hump = Character.isLowerCase(prev) || Character.isDigit(prev);
                boolean acronymEnd = Character.isUpperCase(prev) && i + 1 < n
                        && Character.isLowerCase(text.charAt(i + 1));
                if (hump || acronymEnd) {
                    appendSpace(out);
                }
            }
            out.append(c);
        }
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        return out.toString();
    }

    private static void appendSpace(StringBuilder out) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }
}
