package dev.toolsmith.eventing.logging;

/**
 * Stands in, in a log record, for an exception whose message (or a cause's) holds control characters: it
 * prints as the original ({@code <class>: <message>}, same stack trace, causes and suppressed exceptions)
 * with the message escaped by {@link ControlEscapes}. It exists only to be formatted.
 */
final class EscapedThrowable extends Throwable {

    private final String headline;

    private EscapedThrowable(Throwable original) {
        super(ControlEscapes.escape(original.getMessage()));
        String message = original.getLocalizedMessage();
        this.headline = original.getClass().getName() + (message == null ? "" : ": " + ControlEscapes.escape(message));
        setStackTrace(original.getStackTrace());
        if (original.getCause() != null && original.getCause() != original) {
            initCause(of(original.getCause()));
        }
        for (Throwable suppressed : original.getSuppressed()) {
            addSuppressed(of(suppressed));
        }
    }

    /** {@code original} itself when nothing in it needs escaping, else its escaped stand-in. */
    static Throwable escapedIfNeeded(Throwable original) {
        return original == null || !needsEscaping(original, 0) ? original : of(original);
    }

    private static Throwable of(Throwable original) {
        return new EscapedThrowable(original);
    }

    private static boolean needsEscaping(Throwable t, int depth) {
        if (t == null || depth > 20) {
            return false;
        }
        if (ControlEscapes.needsEscaping(t.getLocalizedMessage()) || needsEscaping(t.getCause(), depth + 1)) {
            return true;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            if (needsEscaping(suppressed, depth + 1)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return headline;
    }
}
