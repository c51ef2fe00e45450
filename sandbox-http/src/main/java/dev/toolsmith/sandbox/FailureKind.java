package dev.toolsmith.sandbox;

/** Why a wrapped tool's call did not succeed; callers branch on it (retry, disable, tell the planner). */
public enum FailureKind {
    /** The inputs break the input schema: nothing was sent. */
    INVALID_INPUT,
    /** The plugin's binding cannot build a request (missing server URL, unknown input location...): nothing was sent. */
    INVALID_BINDING,
    /** A secret the auth scheme needs could not be resolved or decrypted: nothing was sent. */
    SECRET_UNAVAILABLE,
    /** The destination is not an approved host, resolves to a refused address, or a redirect left the host. */
    DESTINATION_REFUSED,
    /** No complete response within the binding's timeout. */
    TIMEOUT,
    /** The connection failed: refused, reset, closed early, unknown host. */
    CONNECTION,
    /** The server answered with a non-2xx status. */
    HTTP_STATUS,
    /** The response body is larger than the binding allows. */
    RESPONSE_TOO_LARGE,
    /** The response does not match the output schema. */
    INVALID_OUTPUT
}
