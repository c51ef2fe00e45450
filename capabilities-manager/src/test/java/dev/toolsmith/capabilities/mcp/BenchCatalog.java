package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.search.sets.RetrievalSets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * The retrieval benchmark's files (shared/data/README.md; benchmarks/data/steps), read by the same
 * {@link RetrievalSets} the retrieval benchmark reads them with, as an approved catalog of wrapped tools. A
 * registered plugin needs a verb of its own, so a tool without one (the free-text sets) is given its id as a verb;
 * a verb two tools share gets a suffix. The HTTP binding points at a closed local port: the benchmark finds and
 * describes, it never calls.
 */
final class BenchCatalog {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOWHERE = "http://127.0.0.1:9";
    /** The manifest contract's longest name (14 Gorilla names are longer; they are cut, as a registration must). */
    private static final int MAX_NAME = 64;

    /** A labelled query, and the plain-language text a planner would give find_tools for it. */
    record Query(String id, String text, Set<String> gold) {
    }

    private BenchCatalog() {
    }

    /** The file's tools; {@code verbs}: the verbs already taken, to which theirs are added. */
    static List<ToolManifest> tools(Path file, Set<String> verbs) throws IOException {
        List<ToolManifest> out = new ArrayList<>();
        for (ToolManifest t : RetrievalSets.tools(file)) {
            out.add(new ToolManifest(toolId(t.id()), verb(t.verb() != null ? t.verb() : t.id(), verbs),
                    t.name().length() <= MAX_NAME ? t.name() : t.name().substring(0, MAX_NAME),
                    t.description(), ToolSourceType.OPENAPI, t.namespace(), t.domain(), t.tags(), t.inputSchema(),
                    null, t.risk(), binding(), null, 1, null));
        }
        return out;
    }

    /**
     * The queries; a step-shaped one (verb and input names, no text) is asked as the words of its verb and its
     * input names, which is what a planner that has only the step could write.
     */
    static List<Query> queries(Path file, int sample, long seed) throws IOException {
        List<Query> out = new ArrayList<>();
        for (RetrievalSets.LabelledQuery q : RetrievalSets.queries(file)) {
            StringBuilder text = new StringBuilder();
            if (q.verb() != null) {
                text.append(VerbNormalizer.normalize(q.verb())).append(' ');
            }
            if (q.text() != null) {
                text.append(q.text()).append(' ');
            }
            q.inputs().forEach(i -> text.append(i).append(' '));
            Set<String> gold = new HashSet<>();
            q.gold().forEach(id -> gold.add(toolId(id)));
            out.add(new Query(q.id(), text.toString().strip(), gold));
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

    /**
     * The set's id as a registered tool may carry it (the manifest contract's id pattern); the few that may not
     * (e.g. {@code PDF&URLTool}, a Python call in Gorilla) get their other characters as '-', in the tools and in
     * the queries' gold alike.
     */
    static String toolId(String raw) {
        String id = raw.replaceAll("[^A-Za-z0-9._:/-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        return id.length() <= 200 ? id : id.substring(0, 200);
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

    private static String pick(List<String> words, Random rnd, int count) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : " ").append(words.get(rnd.nextInt(words.size())));
        }
        return sb.toString();
    }
}
