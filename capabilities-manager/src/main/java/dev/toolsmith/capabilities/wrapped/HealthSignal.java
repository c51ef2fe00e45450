package dev.toolsmith.capabilities.wrapped;

import dev.toolsmith.sandbox.ExecutionOutcome;
import dev.toolsmith.sandbox.FailureKind;

/** Which failures of a wrapped call say the API is unwell, as opposed to a caller's mistake. */
public final class HealthSignal {

    private HealthSignal() {
    }

    public static boolean isHealthFailure(ExecutionOutcome outcome) {
        if (outcome.succeeded()) {
            return false;
        }
        FailureKind kind = outcome.failureKind();
        return switch (kind) {
            case TIMEOUT, CONNECTION, RESPONSE_TOO_LARGE, INVALID_OUTPUT -> true;
            // 5xx: the server is broken; 401/403: our credential no longer works; 429: it is overloaded.
            // Other 4xx answer a caller's bad inputs and say nothing about the API's health.
            case HTTP_STATUS -> outcome.httpStatus() == null || outcome.httpStatus() >= 500
                    || outcome.httpStatus() == 401 || outcome.httpStatus() == 403 || outcome.httpStatus() == 429
                    || (outcome.httpStatus() >= 300 && outcome.httpStatus() < 400);
            // a redirect off the approved host is the API misbehaving; a first hop refused is configuration
            case DESTINATION_REFUSED -> outcome.httpStatus() != null;
            case INVALID_INPUT, INVALID_BINDING, SECRET_UNAVAILABLE -> false;
        };
    }

    /** True when the executor stopped before anything was sent, so the call used nothing of the API. */
    public static boolean nothingSent(ExecutionOutcome outcome) {
        if (outcome.succeeded()) {
            return false;
        }
        return switch (outcome.failureKind()) {
            case INVALID_INPUT, INVALID_BINDING, SECRET_UNAVAILABLE -> true;
            case DESTINATION_REFUSED -> outcome.httpStatus() == null; // refused at the first hop, not after a redirect
            default -> false;
        };
    }
}
