package dev.toolsmith.sandbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The result of one call of a wrapped tool. On success {@code outputs} is the response body (JSON, or a
 * JSON string for a text body) that passed the output schema; on failure {@code failureKind} and a short
 * {@code reason} say what went wrong, with the HTTP status when there was one. {@code request} is the
 * request sent (null when the call stopped before building one), secrets redacted. Neither the reason nor
 * the outputs ever contain a secret.
 *
 * @param overheadNanos time the executor spent outside the HTTP exchange (validation, building, parsing)
 * @param durationMs wall time of the whole call
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExecutionOutcome(
        boolean succeeded,
        JsonNode outputs,
        FailureKind failureKind,
        Integer httpStatus,
        String reason,
        RecordedRequest request,
        long overheadNanos,
        long durationMs) {

    static ExecutionOutcome success(JsonNode outputs, int status, RecordedRequest request, long overheadNanos,
            long durationMs) {
        return new ExecutionOutcome(true, outputs, null, status, null, request, overheadNanos, durationMs);
    }

    static ExecutionOutcome failure(FailureKind kind, Integer status, String reason, RecordedRequest request,
            long overheadNanos, long durationMs) {
        return new ExecutionOutcome(false, null, kind, status, reason, request, overheadNanos, durationMs);
    }
}
