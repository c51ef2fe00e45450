package dev.toolsmith.capabilities.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * Calls in a period, of one tool, one caller or one time bucket ({@code toolId}, {@code caller} or
 * {@code at} says which): executed calls, of which succeeded and errors, denials (not executed), the
 * latency of executed calls, and what they cost.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UsageFigures(String toolId, String caller, Instant at, long calls, long succeeded, long errors,
        long denied, Double latencyP50Ms, Double latencyP95Ms, BigDecimal spend) {
}
