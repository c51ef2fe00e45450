package dev.toolsmith.openapi.fetch;

/**
 * A document could not be fetched. {@link #reason()} lets callers branch (a blocked address is a
 * configuration matter, a timeout may pass); the message says what happened in words a person reads.
 */
public class FetchException extends Exception {

    public enum Reason {
        /** Not an absolute http(s) URL. */
        BAD_URL,
        /** The host resolves to an address the policy refuses (private, loopback, metadata…). */
        BLOCKED_ADDRESS,
        /** The host does not resolve or refuses connections. */
        UNREACHABLE,
        /** The whole fetch took longer than allowed. */
        TIMEOUT,
        /** The body is larger than allowed. */
        TOO_LARGE,
        /** More redirects than allowed, or a redirect without a usable Location. */
        BAD_REDIRECT,
        /** The server answered with a non-2xx status. */
        HTTP_STATUS
    }

    private final Reason reason;

    public FetchException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public FetchException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
