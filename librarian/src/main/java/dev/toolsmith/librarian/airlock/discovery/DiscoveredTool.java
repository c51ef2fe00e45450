package dev.toolsmith.librarian.airlock.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;

/**
 * A tool a source offers, as one scan found it. {@code operationKey} identifies it within the source
 * across scans ({@code "GET /pets"}, a manifest file's path); the manifest carries its content hash.
 */
public record DiscoveredTool(String operationKey, ToolManifest manifest, JsonNode operation, List<String> warnings) {

    public DiscoveredTool {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }
}
