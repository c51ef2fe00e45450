package dev.toolsmith.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolsmith.contracts.tool.ToolManifest;

/**
 * Counts what a tool costs in a prompt: its function definition ({@code name}, {@code description},
 * {@code parameters} = the input JSON Schema) as JSON, in cl100k_base tokens. Thread-safe.
 */
public final class ToolTokens {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);

    private ToolTokens() {
    }

    /** The definition a planner prompt would carry for this tool. */
    public static String definition(ToolManifest tool) {
        ObjectNode fn = JSON.createObjectNode();
        fn.put("name", tool.verb() != null && !tool.verb().isBlank() ? tool.verb() : tool.id());
        if (tool.description() != null) {
            fn.put("description", tool.description());
        }
        if (tool.inputSchema() != null) {
            fn.set("parameters", tool.inputSchema());
        }
        return fn.toString();
    }

    public static int count(ToolManifest tool) {
        return CL100K.countTokens(definition(tool));
    }

    public static int count(String text) {
        return text == null ? 0 : CL100K.countTokens(text);
    }
}
