package dev.toolsmith.eventing.rest;

import java.util.OptionalInt;

/**
 * Which characters a request may not carry in a path or query value. PostgreSQL refuses NUL in text (a raw
 * database error, a 500, before this check), and the other C0/C1 controls and DEL have no business in an id,
 * a name or a filter: they only serve to forge log lines or confuse terminals.
 */
public final class ControlCharacters {

    private ControlCharacters() {
    }

    /** The first control character in {@code value}, if any. */
    public static OptionalInt firstIn(String value) {
        if (value == null) {
            return OptionalInt.empty();
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (isControl(c)) {
                return OptionalInt.of(c);
            }
        }
        return OptionalInt.empty();
    }

    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f);
    }

    /** {@code U+0000}, as error messages name the character (never the raw character itself). */
    public static String codePoint(int c) {
        return String.format("U+%04X", c);
    }
}
