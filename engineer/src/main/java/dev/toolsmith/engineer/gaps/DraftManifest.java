package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.llm.AnswerChecks;
import dev.toolsmith.engineer.llm.ForeignHosts;
import dev.toolsmith.engineer.llm.RejectedAnswerException;
import dev.toolsmith.openapi.CandidateValidator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns an LLM's answer (read by the library into a {@link DraftAnswer}) into a draft tool manifest for a
 * capability gap, or refuses it naming the problem. The draft is a specification for an admin: the gap's
 * verb, a description, an input schema with every input the planner gave and an output schema, no HTTP
 * binding. It must pass the same checks as any candidate
 * (schemas against the 2020-12 meta-schema, the manifest against the contracts' tool-manifest schema).
 */
public final class DraftManifest {

    static final String NO_BINDING = "a draft has no HTTP binding: add a source that offers it";

    private final CandidateValidator validator;
    private final ObjectMapper mapper;

    public DraftManifest(CandidateValidator validator, ObjectMapper mapper) {
        this.validator = validator;
        this.mapper = mapper;
    }

    public ToolManifest read(DraftAnswer answer, String actionVerb, String normalizedVerb, List<String> inputNames)
            throws RejectedAnswerException {
        String description = AnswerChecks.paragraph(answer.description(), "description", 20, 1000);
        Set<String> hosts = ForeignHosts.in(description, Set.of());
        if (!hosts.isEmpty()) {
            throw new RejectedAnswerException("the description names " + String.join(", ", hosts)
                    + "; a draft names no servers");
        }
        JsonNode input = objectSchema(answer.inputSchema(), "inputSchema");
        List<String> missing = inputNames.stream().filter(name -> !input.path("properties").has(name)).toList();
        if (!missing.isEmpty()) {
            throw new RejectedAnswerException("'inputSchema' lacks the gap's inputs " + missing);
        }
        JsonNode output = objectSchema(answer.outputSchema(), "outputSchema");
        if (output.path("properties").isEmpty()) {
            throw new RejectedAnswerException("'outputSchema' declares no output");
        }
        String verb = verbCase(actionVerb);
        String name = verb.toLowerCase(Locale.ROOT);
        name = name.length() <= 64 ? name : name.substring(0, 64);
        ToolManifest draft = new ToolManifest("draft:" + name, verb, name, description, null, "draft", null,
                List.of("draft", "gap:" + abbreviate(normalizedVerb)), input, output, answer.risk(), null,
                HealthProbe.unavailable(NO_BINDING), 0, null);
        draft = draft.withVersion(0, ContentHash.of(draft, mapper));
        String problem = validator.problem(draft).orElse(null);
        if (problem != null) {
            throw new RejectedAnswerException(problem);
        }
        return draft;
    }

    private static JsonNode objectSchema(JsonNode schema, String field) throws RejectedAnswerException {
        if (schema == null || !schema.isObject() || !"object".equals(schema.path("type").asText())
                || !schema.path("properties").isObject()) {
            throw new RejectedAnswerException("'" + field + "' is not an object schema with properties");
        }
        return schema;
    }

    /** The gap's verb as the catalog writes verbs ({@code reserve table} → {@code RESERVE_TABLE}). */
    static String verbCase(String actionVerb) {
        String verb = actionVerb.strip().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT)
                .replaceAll("[^A-Z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (verb.isEmpty() || !Character.isLetter(verb.charAt(0))) {
            verb = "DO_" + verb;
        }
        return verb.length() <= 100 ? verb : verb.substring(0, 100);
    }

    private static String abbreviate(String text) {
        return text.length() <= 95 ? text : text.substring(0, 95);
    }
}
