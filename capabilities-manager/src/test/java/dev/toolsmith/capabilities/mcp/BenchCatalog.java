package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * The retrieval benchmark's files (shared/data/README.md; benchmarks/data/steps) as an approved catalog of
 * wrapped tools: the fields are read as the retrieval benchmark reads them ({@code name_for_human}/{@code name},
 * {@code description} + {@code description_for_model}, {@code verb}, {@code namespace}, {@code domain},
 * {@code risk}, {@code parameters} as an input schema whatever its shape). A registered plugin needs a verb of
 * its own, so a tool without one (the free-text sets) is given its id as a verb; a verb two tools share gets a
 * suffix. The HTTP binding points at a closed local port: the benchmark finds and describes, it never calls.
 */
final class BenchCatalog {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOWHERE = "http://127.0.0.1:9";

    /** A labelled query, and the plain-language text a planner would give find_tools for it. */
    record Query(String id, String text, Set<String> gold) {
    }

    private BenchCatalog() {
    }

    /** The file's tools; {@code verbs}: the verbs already taken, to which theirs are added. */
    static List<ToolManifest> tools(Path file, Set<String> verbs) throws IOException {
        List<ToolManifest> out = new ArrayList<>();
        for (JsonNode t : lines(file)) {
            out.add(tool(t, verbs));
        }
        return out;
    }

    /**
     * The queries; a step-shaped one (verb and input names, no text) is asked as the words of its verb and its
     * input names, which is what a planner that has only the step could write.
     */
    static List<Query> queries(Path file, int sample, long seed) throws IOException {
        List<Query> out = new ArrayList<>();
        for (JsonNode q : lines(file)) {
            StringBuilder text = new StringBuilder();
            if (q.hasNonNull("verb")) {
                text.append(VerbNormalizer.normalize(q.get("verb").asText())).append(' ');
            }
            if (q.hasNonNull("text")) {
                text.append(q.get("text").asText()).append(' ');
            }
            q.path("inputs").forEach(i -> text.append(i.asText()).append(' '));
            Set<String> gold = new HashSet<>();
            q.path("gold").forEach(g -> gold.add(g.asText()));
            out.add(new Query(q.path("id").asText(), text.toString().strip(), gold));
        }
        if (sample > 0 && sample < out.size()) {
            java.util.Collections.shuffle(out, new Random(seed));
            return List.copyOf(out.subList(0, sample));
        }
        return out;
    }

    /** Distinct synthetic tools from the catalog's own words, to pad it to a size (never gold for a query). */
    static List<ToolManifest> synthetic(List<ToolManifest> real, int count, long seed) {
        Random rnd = new Random(seed);
        List<String> words = new ArrayList<>();
        for (ToolManifest t : real) {
            for (String w : (t.description() == null ? "" : t.description()).split("[^\\p{L}\\p{N}]+")) {
                if (w.length() > 2) {
                    words.add(w.toLowerCase(Locale.ROOT));
                }
            }
        }
        if (words.isEmpty()) {
            words.add("tool");
        }
        List<ToolManifest> out = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            String name = pick(words, rnd, 2) + " " + n;
            ObjectNode schema = JSON.createObjectNode().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            String input = words.get(rnd.nextInt(words.size()));
            props.putObject(input).put("type", "string");
            schema.putArray("required").add(input);
            out.add(new ToolManifest("synthetic-" + n, "SYNTHETIC_" + n, name, pick(words, rnd, 12 + rnd.nextInt(20)) + ".",
                    ToolSourceType.OPENAPI, "synthetic", null, List.of(pick(words, rnd, 1)), schema, null,
                    Risk.READ_ONLY, binding(), null, 1, null));
        }
        return out;
    }

    private static ToolManifest tool(JsonNode t, Set<String> verbs) {
        String id = t.path("id").asText();
        String name = text(t, "name_for_human", text(t, "name", id));
        String description = text(t, "description", "");
        String forModel = text(t, "description_for_model", "");
        if (!forModel.isBlank() && !forModel.strip().equals(description.strip())) {
            description = (description + " " + forModel).strip();
        }
        List<String> tags = new ArrayList<>();
        for (String field : List.of("functionality", "category")) {
            if (!text(t, field, "").isBlank()) {
                tags.add(text(t, field, ""));
            }
        }
        t.path("tags").forEach(x -> tags.add(x.asText()));
        Risk risk = Risk.READ_ONLY;
        try {
            risk = Risk.valueOf(text(t, "risk", "READ_ONLY"));
        } catch (IllegalArgumentException e) {
            // an unknown risk reads as the sets' default, as in the retrieval benchmark
        }
        return new ToolManifest(id, verb(text(t, "verb", id), verbs), name, description, ToolSourceType.OPENAPI,
                text(t, "namespace", null), text(t, "domain", null), tags, schema(t.get("parameters")), null, risk,
                binding(), null, 1, null);
    }

    private static HttpBinding binding() {
        return new HttpBinding("GET", NOWHERE, "/bench", List.of(), null, null, 1_000, 0);
    }

    private static String verb(String raw, Set<String> taken) {
        String verb = raw.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (verb.isEmpty() || !Character.isLetter(verb.charAt(0))) {
            verb = "T_" + verb;
        }
        String unique = verb;
        for (int n = 2; !taken.add(unique); n++) {
            unique = verb + "_" + n;
        }
        return unique;
    }

    /** {@code parameters} as a JSON Schema: one already, an object of examples, a list of names, or comma text. */
    private static JsonNode schema(JsonNode parameters) {
        if (parameters == null || parameters.isNull()) {
            return null;
        }
        if (parameters.isObject() && parameters.has("properties")) {
            return parameters;
        }
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        if (parameters.isObject()) {
            parameters.fieldNames().forEachRemaining(props::putObject);
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
            if (!s.equalsIgnoreCase("N/A") && !s.equalsIgnoreCase("none")) {
                for (String p : s.split(",")) {
                    if (!p.isBlank()) {
                        props.putObject(p.strip());
                    }
                }
            }
        }
        return props.isEmpty() ? null : schema;
    }

    private static List<JsonNode> lines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    private static String pick(List<String> words, Random rnd, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : " ").append(words.get(rnd.nextInt(words.size())));
        }
        return sb.toString();
    }

    private static String text(JsonNode t, String field, String fallback) {
        JsonNode v = t.get(field);
        return v == null || v.isNull() || !v.isValueNode() ? fallback : v.asText();
    }
}
