package dev.toolsmith.capabilities.registry;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;

/**
 * A registered plugin: the manifest that describes it, how it runs, whether it may serve steps, and
 * (for wrapped tools) the usage policy approved with it, kept as JSON for the policy engine.
 */
public record Plugin(
        String toolId,
        String verb,
        PluginType type,
        PluginStatus status,
        String statusReason,
        int version,
        String contentHash,
        ToolManifest manifest,
        JsonNode policy) {

    /** DEGRADED plugins still serve (health is marginal); only DISABLED ones are refused. */
    public boolean serves() {
        return status != PluginStatus.DISABLED;
    }

    /** A manifest without a risk is treated as the most dangerous kind. */
    public Risk risk() {
        return manifest.risk() == null ? Risk.DESTRUCTIVE : manifest.risk();
    }

    /** Identifies this exact content: compiled schemas are cached under it. */
    public String revisionKey() {
        return toolId + "@" + version + "#" + contentHash;
    }

    public Plugin withStatus(PluginStatus newStatus, String reason) {
        return new Plugin(toolId, verb, type, newStatus, reason, version, contentHash, manifest, policy);
    }
}
