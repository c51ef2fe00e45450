package dev.toolsmith.librarian.airlock.source;

/** A scan ran out of its time ({@code toolsmith.airlock.scan-timeout}); says at which step. */
public class ScanTimeoutException extends RuntimeException {

    public ScanTimeoutException(String step) {
        super(step, null, false, false);
    }

    /** The step that was running (or about to run) when the time ran out. */
    public String step() {
        return getMessage();
    }
}
