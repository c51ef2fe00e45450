package dev.toolsmith.contracts.build;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A plugin's availability changed (health checks or an admin), on {@code plugin-status} keyed by tool
 * id; the librarian hides disabled tools from search.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PluginStatusChanged(String toolId, PluginStatus status, String reason, String changedBy,
        Instant changedAt) {
}
