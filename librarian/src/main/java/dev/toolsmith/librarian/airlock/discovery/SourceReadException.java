package dev.toolsmith.librarian.airlock.discovery;

/** A source could not be read at all; the message is what the admin sees as the source's last error. */
public class SourceReadException extends Exception {

    public SourceReadException(String message) {
        super(message);
    }

    public SourceReadException(String message, Throwable cause) {
        super(message, cause);
    }
}
