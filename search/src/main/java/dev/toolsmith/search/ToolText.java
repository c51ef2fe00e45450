package dev.toolsmith.search;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The words of a tool, by field, as both matchers see them: identifiers (verb, name, parameter names)
 * normalised into words, parameter names and descriptions pulled out of the input JSON Schema.
 */
public record ToolText(String name, String verb, String description, String tags, String domain,
        String parameters) {

    private static final int MAX_PARAMETERS = 64;
    private static final int MAX_PARAMETER_CHARS = 2000;
    private static final int MAX_SCHEMA_DEPTH = 4;

    public static ToolText of(ToolManifest tool) {
        String name = VerbNormalizer.normalize(tool.name() != null ? tool.name() : tool.id());
        String verb = VerbNormalizer.normalize(tool.verb());
        String description = tool.description() == null ? "" : tool.description().strip();
        String tags = String.join(", ", tool.tags().stream().map(VerbNormalizer::normalize).toList());
        String domain = joinNonBlank(" ", VerbNormalizer.normalize(tool.domain()),
                VerbNormalizer.normalize(tool.namespace()));
        List<String> params = new ArrayList<>();
        collectParameters(tool.inputSchema(), 0, params);
        String parameters = String.join("; ", params);
        if (parameters.length() > MAX_PARAMETER_CHARS) {
            parameters = parameters.substring(0, MAX_PARAMETER_CHARS);
        }
        return new ToolText(name, verb, description, tags, domain, parameters);
    }

    /**
     * The text the embedding model reads for the whole tool: what it is called, what it does, where it
     * belongs and what it takes.
     */
    public String passage() {
        StringBuilder sb = new StringBuilder();
        sb.append(name);
        if (!verb.isEmpty() && !verb.equals(name)) {
            sb.append(" (").append(verb).append(')');
        }
        sb.append(": ").append(description);
        if (!domain.isEmpty()) {
            sb.append(" Domain: ").append(domain).append('.');
        }
        if (!tags.isEmpty()) {
            sb.append(" Tags: ").append(tags).append('.');
        }
        if (!parameters.isEmpty()) {
            sb.append(" Parameters: ").append(parameters).append('.');
        }
        return sb.toString();
    }

    /** Name and verb: the tool's identity in a few words. */
    public String title() {
        return verb.isEmpty() || verb.equals(name) ? name : name + " (" + verb + ")";
    }

    private static void collectParameters(JsonNode schema, int depth, List<String> out) {
        if (schema == null || !schema.isObject() || depth > MAX_SCHEMA_DEPTH || out.size() >= MAX_PARAMETERS) {
            return;
        }
        JsonNode properties = schema.get("properties");
        if (properties != null && properties.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = properties.fields();
            while (it.hasNext() && out.size() < MAX_PARAMETERS) {
                Map.Entry<String, JsonNode> p = it.next();
                JsonNode prop = p.getValue();
                String words = VerbNormalizer.normalize(p.getKey());
                String description = prop.path("description").asText("");
                if (description.isEmpty()) {
                    description = prop.path("title").asText("");
                }
                out.add(description.isEmpty() ? words : words + " (" + description.strip() + ")");
                collectParameters(prop, depth + 1, out);
                collectParameters(prop.get("items"), depth + 1, out);
            }
        }
        collectParameters(schema.get("items"), depth + 1, out);
    }

    private static String joinNonBlank(String sep, String... parts) {
        StringBuilder sb = new StringBuilder();
        for (String p : parts) {
            if (p != null && !p.isBlank()) {
                if (sb.length() > 0) {
                    sb.append(sep);
                }
                sb.append(p);
            }
        }
        return sb.toString();
    }
}
