package dev.toolsmith.contracts.tool;

import java.util.Locale;

/**
 * Turns identifiers into words, the one way every service does it: {@code CONVERT_CURRENCY},
 * {@code convertCurrency}, {@code convert-currency} and {@code convert.currency} all become
 * {@code "convert currency"}; {@code getHTTPResponse} becomes {@code "get http response"} and
 * {@code ConvertÜberweisung} {@code "convert überweisung"}. The capabilities manager keys learned aliases
 * and capability gaps by this form and the search library indexes and queries with it, so a verb a planner
 * sends matches the words a tool was indexed under.
 *
 * <p>Case is Unicode's (code points, so letters outside the BMP split too); digits stay with the letters
 * before them ({@code fetchV2Data} is {@code "fetch v2 data"}); underscores, hyphens, dots, slashes, colons,
 * whitespace and control characters (NUL included) separate words.
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
     * Splits every identifier-like word inside free text at camelCase humps, acronym ends and the separators
     * above, keeping the letters' case. Other text is left alone apart from collapsing separators to one space.
     */
    public static String splitIdentifiers(String text) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        int previous = -1;
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c) < text.length() ? text.codePointAt(i + Character.charCount(c)) : -1;
            if (isSeparator(c)) {
                appendSpace(out);
            } else {
                if (previous >= 0 && startsWord(previous, c, next)) {
                    appendSpace(out);
                }
                out.appendCodePoint(c);
            }
            previous = isSeparator(c) ? -1 : c;
            i += Character.charCount(c);
        }
        int end = out.length();
        while (end > 0 && out.charAt(end - 1) == ' ') {
            end--;
        }
        out.setLength(end);
        return out.toString();
    }

    /** An upper-case letter after a lower-case one or a digit (a hump), or the last capital of an acronym. */
    private static boolean startsWord(int previous, int c, int next) {
        if (!isUpper(c)) {
            return false;
        }
        boolean hump = Character.isLowerCase(previous) || Character.isDigit(previous);
        boolean acronymEnd = isUpper(previous) && next >= 0 && Character.isLowerCase(next);
        return hump || acronymEnd;
    }

    private static boolean isUpper(int c) {
        return Character.isUpperCase(c) || Character.isTitleCase(c);
    }

    private static boolean isSeparator(int c) {
        return c == '_' || c == '-' || c == '.' || c == '/' || c == ':' || Character.isWhitespace(c)
                || Character.isSpaceChar(c) || Character.isISOControl(c);
    }

    private static void appendSpace(StringBuilder out) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') {
            out.append(' ');
        }
    }
}
