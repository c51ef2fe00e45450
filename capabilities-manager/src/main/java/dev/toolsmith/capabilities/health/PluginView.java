package dev.toolsmith.capabilities.health;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.capabilities.policy.RedactedPolicy;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.time.Instant;
import java.util.List;

/** What GET /plugins and GET /plugins/{id} show of a plugin. Secrets appear by name only. */
public final class PluginView {

    private PluginView() {
    }

    /**
     * A line of GET /plugins. Health fields are set for wrapped plugins only; {@code errorRate} and
     * {@code latencyP50Ms} cover the last 24 hours of probes and calls.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Summary(String toolId, String verb, String name, String type, PluginStatus status,
            String statusReason, int version, String contentHash, Instant lastProbeAt, Boolean lastProbeOk,
            Integer consecutiveFailures, Double errorRate, Double latencyP50Ms, Instant nextProbeAt,
            String disabledBy) {
    }

    /**
     * GET /plugins/{id}: the plugin, the policy in force, its health (with the thresholds that judge it),
     * the latest probes (oldest first) and status changes (newest first).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Details(String toolId, String verb, String name, String type, PluginStatus status,
            String statusReason, int version, String contentHash, ToolManifest manifest, RedactedPolicy policy,
            Health health, HealthThresholds thresholds, List<HealthStore.ProbeEntry> healthHistory,
            List<HealthStore.StatusEntry> statusHistory) {
    }

    /** The health worker's current view of a wrapped plugin. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Health(int consecutiveFailures, int consecutiveSuccesses, Instant lastProbeAt, Boolean lastProbeOk,
            String lastProbeReason, Instant nextProbeAt, String disabledBy) {

        static Health of(HealthStore.HealthRow row) {
            return new Health(row.consecutiveFailures(), row.consecutiveSuccesses(), row.lastProbeAt(),
                    row.lastProbeOk(), row.lastProbeReason(), row.nextProbeAt(), row.disabledBy());
        }
    }
}
