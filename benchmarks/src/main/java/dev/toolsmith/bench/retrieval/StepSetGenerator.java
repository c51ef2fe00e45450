package dev.toolsmith.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.CandidateTool;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.IngestionLimits;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.search.IdentifierWords;
import dev.toolsmith.search.sets.RetrievalSets;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Builds the step-shaped retrieval set: every operation of the shared OpenAPI documents becomes a tool
 * (read by {@link OpenApiIngestor}, as a scan does), and one plan step per operation asks for it the way
 * a planner that has never seen the catalog would: an {@code actionVerb} that is not the operationId
 * (its action word replaced by a paraphrase from a fixed template table, its object words kept, thinned
 * or taken from the path), and input names that are renamed (case style, abbreviation, synonym, entity
 * prefix dropped) or partial. Deterministic: one seeded {@link Random} per operation key.
 *
 * <p>The paraphrase and rename tables live here only; the search library never sees them (it folds
 * parameter names with its own general table, {@code InputOverlap}), so nothing is fitted to this set.
 *
 * <pre>
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) dev.toolsmith.bench.retrieval.StepSetGenerator \
 *   --specs ../shared/data/openapi/specs --out benchmarks/data/steps
 * </pre>
 */
@Command(name = "StepSetGenerator", mixinStandardHelpOptions = true,
        description = "Builds a step-shaped retrieval set: --specs DIR --out DIR | --tools tools.jsonl --out FILE.")
public final class StepSetGenerator implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_DESCRIPTION = 400;
    private static final int MAX_PARAMETER_DESCRIPTION = 160;

    /** Action words a planner might use instead of the document's; the first entry is the document's word. */
    private static final Map<String, List<String>> ACTIONS = Map.ofEntries(
            Map.entry("get", List.of("fetch", "retrieve", "look up", "obtain", "read", "show")),
            Map.entry("list", List.of("enumerate", "show all", "browse", "fetch all", "find all")),
            Map.entry("create", List.of("add", "make", "register", "new", "set up")),
            Map.entry("post", List.of("submit", "add", "send")),
            Map.entry("add", List.of("create", "insert", "attach", "register")),
            Map.entry("update", List.of("modify", "change", "edit", "amend", "revise")),
            Map.entry("put", List.of("store", "replace", "save", "set")),
            Map.entry("patch", List.of("modify", "amend", "tweak")),
            Map.entry("set", List.of("configure", "assign", "define")),
            Map.entry("delete", List.of("remove", "erase", "drop", "discard", "destroy")),
            Map.entry("remove", List.of("delete", "detach", "drop")),
            Map.entry("search", List.of("find", "query", "look for", "lookup")),
            Map.entry("find", List.of("search", "locate", "look up")),
            Map.entry("send", List.of("dispatch", "deliver", "transmit", "post")),
            Map.entry("start", List.of("begin", "launch", "kick off", "run")),
            Map.entry("stop", List.of("halt", "end", "terminate", "cancel")),
            Map.entry("describe", List.of("detail", "explain", "get details of", "inspect")),
            Map.entry("check", List.of("verify", "validate", "test")),
            Map.entry("upload", List.of("push", "transfer", "put")),
            Map.entry("download", List.of("pull", "fetch file", "export")),
            Map.entry("cancel", List.of("abort", "revoke", "call off")),
            Map.entry("enable", List.of("turn on", "activate", "switch on")),
            Map.entry("disable", List.of("turn off", "deactivate", "switch off")),
            Map.entry("publish", List.of("release", "broadcast", "announce")),
            Map.entry("tag", List.of("label", "mark")),
            Map.entry("untag", List.of("unlabel", "unmark")),
            Map.entry("retrieve", List.of("get", "fetch", "obtain")),
            Map.entry("modify", List.of("update", "change", "edit")),
            Map.entry("count", List.of("tally", "number of", "how many")),
            Map.entry("validate", List.of("check", "verify")),
            Map.entry("import", List.of("load", "bring in", "ingest")),
            Map.entry("export", List.of("dump", "extract", "download")));

    /** Where the document's action word is not one of the above: the HTTP method's paraphrases. */
    private static final Map<String, List<String>> BY_METHOD = Map.of(
            "get", ACTIONS.get("get"), "post", ACTIONS.get("create"), "put", ACTIONS.get("update"),
            "patch", ACTIONS.get("update"), "delete", ACTIONS.get("delete"), "head", List.of("check", "probe"),
            "options", List.of("inspect"));

    /** Input renames a planner might write: abbreviation and synonym (both directions are used). */
    private static final Map<String, List<String>> WORDS = Map.ofEntries(
            Map.entry("id", List.of("identifier", "key", "ref")), Map.entry("identifier", List.of("id")),
            Map.entry("name", List.of("title", "label")), Map.entry("number", List.of("num", "no")),
            Map.entry("count", List.of("total", "num")), Map.entry("limit", List.of("max", "max results")),
            Map.entry("offset", List.of("skip", "start")), Map.entry("page", List.of("page number")),
            Map.entry("query", List.of("q", "search", "term")), Map.entry("q", List.of("query", "search text")),
            Map.entry("description", List.of("desc", "summary")), Map.entry("message", List.of("msg", "text")),
            Map.entry("address", List.of("addr")), Map.entry("user", List.of("username", "account")),
            Map.entry("username", List.of("user", "login")), Map.entry("email", List.of("mail", "email address")),
            Map.entry("url", List.of("link", "uri")), Map.entry("type", List.of("kind", "category")),
            Map.entry("date", List.of("day", "when")), Map.entry("time", List.of("timestamp", "when")),
            Map.entry("start", List.of("from", "begin")), Map.entry("end", List.of("to", "until")),
            Map.entry("from", List.of("source", "start")), Map.entry("to", List.of("target", "destination")),
            Map.entry("body", List.of("content", "payload")), Map.entry("data", List.of("payload", "content")),
            Map.entry("token", List.of("access token", "auth token")), Map.entry("status", List.of("state")),
            Map.entry("region", List.of("zone", "location")), Map.entry("size", List.of("length", "count")),
            Map.entry("format", List.of("fmt", "output format")), Map.entry("version", List.of("ver", "revision")),
            Map.entry("language", List.of("lang", "locale")), Map.entry("organization", List.of("org")),
            Map.entry("repository", List.of("repo")), Map.entry("directory", List.of("dir", "folder")),
            Map.entry("image", List.of("img", "picture")), Map.entry("quantity", List.of("qty", "amount")),
            Map.entry("amount", List.of("sum", "value")), Map.entry("file", List.of("document", "attachment")));

    /** Words of an identifier that name no object. */
    private static final Set<String> FILLER = Set.of("of", "by", "to", "for", "in", "on", "all", "the", "a", "an",
            "from", "with", "and", "or", "at", "as", "into");

    @Spec
    CommandSpec spec;
    @ArgGroup(multiplicity = "1")
    Source source;
    @Option(names = "--out", required = true, paramLabel = "DIR|FILE",
            description = "directory of tools.jsonl and queries.jsonl (--specs), or the steps file (--tools)")
    Path out;

    /** Where the tools come from: OpenAPI documents or an existing set's tools (exactly one of them). */
    static final class Source {
        @Option(names = "--specs", paramLabel = "DIR", description = "directory of OpenAPI documents, one tool and one step per operation")
        Path specs;
        @Option(names = "--tools", paramLabel = "FILE", description = "tools.jsonl of a function-style set, one step per tool (the tools are not rewritten)")
        Path tools;
    }

    StepSetGenerator() {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new StepSetGenerator()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        if (source.tools != null) {
            fromTools(source.tools, out);
            return 0;
        }
        if (!Files.isDirectory(source.specs)) {
            throw new ParameterException(spec.commandLine(), "--specs: not a directory: " + source.specs);
        }
        fromSpecs(source.specs, out);
        return 0;
    }

    /** Tools and steps from every operation of the OpenAPI documents under {@code specs}. */
    private static void fromSpecs(Path specs, Path out) throws IOException {
        Files.createDirectories(out);
        List<Path> files;
        try (Stream<Path> listing = Files.list(specs)) {
            files = listing.filter(Files::isRegularFile).sorted().toList();
        }
        OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());
        int documents = 0;
        int tools = 0;
        int steps = 0;
        Set<String> seenIds = new LinkedHashSet<>();
        try (Writer toolsOut = Files.newBufferedWriter(out.resolve("tools.jsonl"), StandardCharsets.UTF_8);
                Writer stepsOut = Files.newBufferedWriter(out.resolve("queries.jsonl"), StandardCharsets.UTF_8)) {
            for (Path file : files) {
                IngestedDocument doc;
                try {
                    doc = ingestor.ingest(Files.readAllBytes(file), file.toUri(), ToolSourceType.OPENAPI);
                } catch (IngestionException | RuntimeException e) {
                    System.err.println("skipped " + file.getFileName() + ": " + e.getMessage());
                    continue;
                }
                documents++;
                for (CandidateTool c : doc.candidates()) {
                    ToolManifest m = c.manifest();
                    if (!seenIds.add(m.id())) {
                        continue;
                    }
                    toolsOut.write(JSON.writeValueAsString(toolLine(doc, c)) + "\n");
                    tools++;
                    ObjectNode step = step(doc, c, new Random(seed(file.getFileName() + " " + c.operationKey())));
                    if (step != null) {
                        stepsOut.write(JSON.writeValueAsString(step) + "\n");
                        steps++;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "{\"documents\":%d,\"tools\":%d,\"steps\":%d}%n", documents, tools, steps);
    }

    /**
     * Steps over an existing retrieval set's function-style tools ({@code name} an identifier such as
     * {@code sendSatelliteMessage}, {@code parameters} a JSON Schema): a second step-shaped catalog, so a
     * confidence fitted on one step set can be measured on another.
     */
    private static void fromTools(Path toolsFile, Path out) throws IOException {
        int steps = 0;
        try (Writer stepsOut = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (JsonNode t : RetrievalSets.rawTools(toolsFile)) {
                String id = t.path("id").asText();
                ObjectNode step = step(id, t.path("name").asText(id), "", "", t.get("parameters"),
                        new Random(seed(id)));
                if (step != null) {
                    stepsOut.write(JSON.writeValueAsString(step) + "\n");
                    steps++;
                }
            }
        }
        System.out.printf(Locale.ROOT, "{\"steps\":%d}%n", steps);
    }

    private static long seed(String key) {
        long h = 1125899906842597L;
        for (int i = 0; i < key.length(); i++) {
            h = 31 * h + key.charAt(i);
        }
        return h;
    }

    /** The tool as the catalog would hold it, with its schema cut to top-level names and descriptions. */
    static ObjectNode toolLine(IngestedDocument doc, CandidateTool c) {
        ToolManifest m = c.manifest();
        ObjectNode t = JSON.createObjectNode();
        t.put("id", m.id());
        t.put("verb", m.verb());
        t.put("name", m.name());
        t.put("description", cut(m.description(), MAX_DESCRIPTION));
        t.put("api", doc.title());
        t.put("namespace", m.namespace());
        if (m.domain() != null) {
            t.put("domain", m.domain());
        }
        ArrayNode tags = t.putArray("tags");
        m.tags().forEach(tags::add);
        t.put("risk", m.risk().name());
        t.put("operation", c.operationKey());
        JsonNode props = m.inputSchema() == null ? null : m.inputSchema().get("properties");
        if (props != null && props.isObject() && !props.isEmpty()) {
            ObjectNode schema = t.putObject("parameters").put("type", "object");
            ObjectNode out = schema.putObject("properties");
            Iterator<Map.Entry<String, JsonNode>> it = props.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> p = it.next();
                ObjectNode prop = out.putObject(p.getKey());
                String d = p.getValue().path("description").asText("");
                if (!d.isBlank()) {
                    prop.put("description", cut(d, MAX_PARAMETER_DESCRIPTION));
                }
            }
            JsonNode required = m.inputSchema().get("required");
            if (required != null && required.isArray()) {
                schema.set("required", required);
            }
        }
        return t;
    }

    /** One plan step for the operation, or null when it cannot be paraphrased. */
    static ObjectNode step(IngestedDocument doc, CandidateTool c, Random random) {
        ToolManifest m = c.manifest();
        String method = c.operationKey().split(" ", 2)[0].toLowerCase(Locale.ROOT);
        String path = c.operationKey().contains(" ") ? c.operationKey().split(" ", 2)[1] : "";
        ObjectNode step = step(m.id(), c.operationId() != null ? c.operationId() : m.verb(), method, path,
                m.inputSchema(), random);
        if (step != null) {
            step.put("api", doc.title());
        }
        return step;
    }

    /**
     * One plan step for tool {@code id} whose identifier (operationId or function name) is
     * {@code identifier}; {@code method} and {@code path} may be empty (a function, not an HTTP operation),
     * and then an identifier without a known action word gives no step.
     */
    static ObjectNode step(String id, String identifier, String method, String path, JsonNode inputSchema,
            Random random) {
        List<String> idWords = words(identifier);
        if (idWords.isEmpty()) {
            return null;
        }
        List<String> actions = ACTIONS.get(idWords.get(0));
        List<String> object = new ArrayList<>(actions != null ? idWords.subList(1, idWords.size()) : idWords);
        if (actions == null) {
            actions = BY_METHOD.get(method);
            if (actions == null) {
                return null;
            }
        }
        if (object.isEmpty() || !path.isEmpty() && random.nextInt(4) == 0) {
            object = pathWords(path); // a quarter of the operations' steps name the object as the path does
        }
        object.removeIf(FILLER::contains); // "get metadata of all channels": the object is "metadata channels"
        if (object.size() > 2 && random.nextBoolean()) {
            object.remove(random.nextInt(object.size())); // planners say less than operationIds
        }
        String action = actions.get(random.nextInt(actions.size()));
        List<String> verbWords = new ArrayList<>(List.of(action.split(" ")));
        verbWords.addAll(object);
        String verb = String.join("_", verbWords).toUpperCase(Locale.ROOT);
        if (String.join(" ", verbWords).equals(String.join(" ", idWords))) {
            return null; // never the identifier in another case
        }
        ObjectNode step = JSON.createObjectNode();
        step.put("id", "step-" + id);
        step.put("verb", verb);
        ArrayNode inputs = step.putArray("inputs");
        for (String name : inputs(inputSchema, random)) {
            inputs.add(name);
        }
        step.putArray("gold").add(id);
        return step;
    }

    /**
     * The step's inputs: the required parameters and some optional ones, each renamed with probability
     * one half; with more than one, one may be left out (a partial step).
     */
    private static List<String> inputs(JsonNode schema, Random random) {
        JsonNode props = schema == null ? null : schema.get("properties");
        if (props == null || !props.isObject()) {
            return List.of();
        }
        Set<String> required = new LinkedHashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        List<String> chosen = new ArrayList<>();
        props.fieldNames().forEachRemaining(name -> {
            if (required.contains(name) || random.nextInt(3) == 0) {
                chosen.add(name);
            }
        });
        if (chosen.size() > 1 && random.nextInt(3) == 0) {
            chosen.remove(random.nextInt(chosen.size()));
        }
        List<String> out = new ArrayList<>(chosen.size());
        for (String name : chosen) {
            out.add(random.nextBoolean() ? rename(name, random) : name);
        }
        return out;
    }

    private static String rename(String name, Random random) {
        List<String> parts = words(name);
        if (parts.isEmpty()) {
            return name;
        }
        switch (random.nextInt(3)) {
            case 0 -> { // swap one word for an abbreviation or synonym, if the table knows one
                for (int i = 0; i < parts.size(); i++) {
                    List<String> alt = WORDS.get(parts.get(i));
                    if (alt != null) {
                        parts.set(i, alt.get(random.nextInt(alt.size())));
                        break;
                    }
                }
            }
            case 1 -> { // drop the entity prefix: petId -> id
                if (parts.size() > 1) {
                    parts.remove(0);
                }
            }
            default -> {
                // only the case style changes
            }
        }
        List<String> flat = new ArrayList<>();
        parts.forEach(p -> flat.addAll(List.of(p.split(" "))));
        return switch (random.nextInt(3)) {
            case 0 -> String.join("_", flat);
            case 1 -> camel(flat);
            default -> String.join("-", flat);
        };
    }

    private static String camel(List<String> words) {
        StringBuilder sb = new StringBuilder(words.get(0));
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            sb.append(w.isEmpty() ? "" : Character.toUpperCase(w.charAt(0)) + w.substring(1));
        }
        return sb.toString();
    }

    private static List<String> words(String identifier) {
        List<String> out = new ArrayList<>();
        if (identifier == null) {
            return out;
        }
        for (String p : IdentifierWords.split(identifier, false).split(" ")) {
            String w = p.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]", "");
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** The static words of a path, without parameters and version segments. */
    private static List<String> pathWords(String path) {
        List<String> out = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.startsWith("{") || segment.matches("v\\d+(\\.\\d+)*")) {
                continue;
            }
            out.addAll(words(segment));
        }
        while (out.size() > 3) {
            out.remove(0);
        }
        return out;
    }

    private static String cut(String s, int max) {
        if (s == null) {
            return "";
        }
        String t = s.strip().replaceAll("\\s+", " ");
        return t.length() <= max ? t : t.substring(0, max);
    }
}
