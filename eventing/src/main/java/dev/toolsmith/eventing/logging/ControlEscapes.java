package dev.toolsmith.eventing.logging;

/**
 * Writes control characters as visible escapes ({@code \n}, {@code \r}, {@code \u0000}, {@code \u001B}, ...)
 * so that a logged value can neither start a forged log line nor send terminal escape sequences. Tab is
 * kept. Backslashes are left alone, so escaping twice changes nothing more than escaping once.
 */
public final class ControlEscapes {

    private ControlEscapes() {
    }

    public static boolean needsEscaping(String text) {
        if (text == null) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (isEscaped(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    public static String escape(String text) {
        if (!needsEscaping(text)) {
            return text;
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!isEscaped(c)) {
                escaped.append(c);
            } else if (c == '\n') {
                escaped.append("\\n");
            } else if (c == '\r') {
                escaped.append("\\r");
            } else {
                escaped.append(String.format("\\u%04X", (int) c));
            }
        }
        return escaped.toString();
    }

    /** C0 controls but tab, DEL, C1 controls, and the Unicode line and paragraph separators. */
    private static boolean isEscaped(char c) {
        return (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
