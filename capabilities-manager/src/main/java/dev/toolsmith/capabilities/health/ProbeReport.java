package dev.toolsmith.capabilities.health;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.build.PluginStatus;
import java.time.Instant;

/** What one health probe found and what it changed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProbeReport(String toolId, boolean probed, boolean ok, Long latencyMs, Integer httpStatus,
        String reason, PluginStatus status, String change, Instant nextProbeAt) {
}
