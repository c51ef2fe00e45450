package dev.toolsmith.search.sets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the retrieval sets' JSONL files (shared/data/README.md; benchmarks/data/steps) into manifests and labelled
 * queries, for every benchmark that runs on them (the retrieval benchmark, the capabilities manager's MCP
 * benchmark): one reading, so both measure the same catalog. The
 * mapping is by field, not by data set: {@code name_for_human} names a tool when present,
 * {@code description_for_model} extends the description, {@code domain} is the domain, {@code verb},
 * {@code namespace} and {@code risk} are taken when present (the step-shaped set has them),
 * {@code functionality}/{@code category}/{@code tags} become tags, and {@code parameters} becomes an
 * input schema whatever its shape (JSON Schema, object of examples, list of names, comma text).
 */
public final class RetrievalSets {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /**
     * A labelled query: free text, or a plan step ({@code verb} + the names of its {@code inputs}, text
     * optional) as the capabilities manager sends it for a novel verb.
     */
    public record LabelledQuery(String id, String text, String verb, List<String> inputs, List<String> gold) {

        /** The text a peer that knows nothing of verbs or inputs reads: all of it, as the hybrid does. */
        public String flatText() {
            StringBuilder sb = new StringBuilder();
            if (verb != null) {
                sb.append(verb).append(' ');
            }
            if (text != null) {
                sb.append(text).append(' ');
            }
            sb.append(String.join(" ", inputs));
            return sb.toString().strip();
        }
    }

    private RetrievalSets() {
    }

    public static List<ToolManifest> tools(Path file) throws IOException {
        return rawTools(file).stream().map(RetrievalSets::tool).toList();
    }

    /** The tools' JSON lines as read (the peer rows index every field of them). */
    public static List<JsonNode> rawTools(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        }
        return out;
    }

    public static List<LabelledQuery> queries(Path file) throws IOException {
        List<LabelledQuery> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode q = JSON.readTree(line);
                List<String> gold = new ArrayList<>();
                q.path("gold").forEach(g -> gold.add(g.asText()));
                List<String> inputs = new ArrayList<>();
                q.path("inputs").forEach(i -> inputs.add(i.asText()));
                out.add(new LabelledQuery(q.path("id").asText(), text(q, "text", null), text(q, "verb", null),
                        inputs, gold));
            }
        }
        return out;
    }

    public static ToolManifest tool(JsonNode t) {
        String id = t.path("id").asText();
        String name = text(t, "name_for_human", text(t, "name", id));
        String description = text(t, "description", "");
        String forModel = text(t, "description_for_model", "");
        if (!forModel.isBlank() && !forModel.strip().equals(description.strip())) {
            description = (description + " " + forModel).strip();
        }
        List<String> tags = new ArrayList<>();
        for (String field : List.of("functionality", "category")) {
            String v = text(t, field, "");
            if (!v.isBlank()) {
                tags.add(v);
            }
        }
        t.path("tags").forEach(x -> tags.add(x.asText()));
        Risk risk = Risk.READ_ONLY;
        try {
            risk = Risk.valueOf(text(t, "risk", "READ_ONLY"));
        } catch (IllegalArgumentException e) {
            // an unknown risk reads as the sets' default
        }
        // an HTTP operation ("GET /pets/{petId}") keeps its path, whose words the lexical index reads
        String[] operation = text(t, "operation", "").split(" ", 2);
        HttpBinding binding = operation.length == 2
                ? new HttpBinding(operation[0], null, operation[1], null, null, null, 0, 0) : null;
        return new ToolManifest(id, text(t, "verb", null), name, description, ToolSourceType.MARKETPLACE,
                text(t, "namespace", null), text(t, "domain", null), tags, schema(t.get("parameters")), null, risk,
                binding, null, 1, null);
    }

    public static JsonNode schema(JsonNode parameters) {
        if (parameters == null || parameters.isNull()) {
            return null;
        }
        if (parameters.isObject() && parameters.has("properties")) {
            return parameters;
        }
        ObjectNode schema = F.objectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        if (parameters.isObject()) {
            parameters.fieldNames().forEachRemaining(n -> props.putObject(n));
        } else if (parameters.isArray()) {
            for (JsonNode p : parameters) {
                if (p.isTextual() && !p.asText().isBlank()) {
                    props.putObject(p.asText());
                } else if (p.isObject() && p.hasNonNull("name")) {
                    ObjectNode prop = props.putObject(p.get("name").asText());
                    if (p.hasNonNull("description")) {
                        prop.put("description", p.get("description").asText());
                    }
                }
            }
        } else if (parameters.isTextual()) {
            String s = parameters.asText().strip();
            if (s.isEmpty() || s.equalsIgnoreCase("N/A") || s.equalsIgnoreCase("none")) {
                return null;
            }
            for (String p : s.split(",")) {
                if (!p.isBlank()) {
                    props.putObject(p.strip());
                }
            }
        }
        return props.isEmpty() ? null : schema;
    }

    private static String text(JsonNode t, String field, String fallback) {
        JsonNode v = t.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? fallback : v.asText();
    }
}
