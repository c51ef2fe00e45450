package dev.toolsmith.librarian.airlock;

/** Echoes a client's value in an error message: control characters out, at most 60 characters. */
public final class LogSafeText {

    private static final int MAX = 60;

    private LogSafeText() {
    }

    public static String of(String text) {
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > MAX ? clean.substring(0, MAX) + "…" : clean;
    }
}
