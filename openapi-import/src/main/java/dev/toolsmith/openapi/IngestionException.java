package dev.toolsmith.openapi;

/**
 * A whole document was refused. The message is meant for the admin who registered the source: it says
 * what is wrong with the document (or its fetch) and, where it helps, where.
 */
public class IngestionException extends Exception {

    public enum Reason {
        /** The document (or an external reference) could not be fetched; see the cause. */
        FETCH_FAILED,
        /** Not parseable JSON or YAML. */
        MALFORMED,
        /** YAML with excessive aliases, nesting or size: an expansion attack or a broken generator. */
        TOO_COMPLEX,
        /** Parseable, but not an OpenAPI 3.x or Swagger 2.0 document. */
        NOT_OPENAPI,
        /** OpenAPI, but invalid in a way that prevents conversion. */
        INVALID_OPENAPI,
        /** More operations than allowed. */
        TOO_MANY_OPERATIONS,
        /** An external {@code $ref} that may not or cannot be resolved. */
        BAD_REFERENCE,
        /** No operation could be turned into a tool. */
        NO_TOOLS
    }

    private final Reason reason;

    public IngestionException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public IngestionException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
