package dev.toolsmith.ui.security;

/**
 * A value a caller chose (a user name typed at sign-in, an address), safe to log and to show: control
 * characters written as {@code \u0000} escapes so it cannot forge a log line, and at most 100 characters.
 */
public final class LogSafe {

    private static final int MAX = 100;

    private LogSafe() {}

    public static String of(String value) {
        if (value == null) {
            return "";
        }
        String cut = value.length() > MAX ? value.substring(0, MAX) + "…" : value;
        StringBuilder safe = new StringBuilder(cut.length());
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                safe.append(String.format("\\u%04X", (int) c));
            } else {
                safe.append(c);
            }
        }
        return safe.toString();
    }
}
