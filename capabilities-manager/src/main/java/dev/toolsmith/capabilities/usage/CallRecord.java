package dev.toolsmith.capabilities.usage;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One wrapped call, denial or health probe, as usage reports and the health window see it.
 *
 * @param healthFailure the failure says the API is unwell (not a caller's mistake, not a denial)
 */
public record CallRecord(String toolId, String caller, Kind kind, Outcome outcome, boolean healthFailure,
        Long latencyMs, Integer httpStatus, String failureKind, String reason, BigDecimal cost, Instant at) {

    public enum Kind {
        CALL,
        PROBE
    }

    public enum Outcome {
        SUCCEEDED,
        FAILED,
        DENIED
    }
}
