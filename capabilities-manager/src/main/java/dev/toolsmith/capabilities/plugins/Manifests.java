package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.util.List;

/** Builds the manifests and example documents of the internal plugins. */
final class Manifests {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String NAMESPACE = "toolsmith";

    private Manifests() {
    }

    static ToolManifest internal(String id, String verb, String name, String description, String domain,
            List<String> tags, String inputSchema, String outputSchema) {
        return new ToolManifest("internal." + id, verb, name, description, ToolSourceType.INTERNAL, NAMESPACE, domain,
                tags, json(inputSchema), json(outputSchema), Risk.READ_ONLY, null, null, 0, null);
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("built-in JSON is malformed: " + e.getOriginalMessage(), e);
        }
    }

    static ObjectNode object(String text) {
        return (ObjectNode) json(text);
    }
}
