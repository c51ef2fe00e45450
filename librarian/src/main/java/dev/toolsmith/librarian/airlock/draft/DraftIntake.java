package dev.toolsmith.librarian.airlock.draft;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.UnhashableContent;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.openapi.CandidateValidator;
import dev.toolsmith.openapi.OpenApiIngestor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Checks a find-or-build draft before it enters the review queue. An LLM wrote the manifest, so nothing
 * in it is taken on trust: it must pass the same checks as any candidate (the tool-manifest contract,
 * input and output schemas against the JSON Schema 2020-12 meta-schema), carry a {@code draft:} id so it
 * never shares a tool id with a real tool, declare every input the planner gave, and have no HTTP
 * binding (no server may enter the airlock except through a reviewed source). Each problem is an
 * {@link IllegalArgumentException} or {@link ContractViolation} naming the field: a 400.
 */
@ApplicationScoped
public class DraftIntake {

    static final String ID_PREFIX = "draft:";
    public static final int MAX_VERB = 200;
    static final int MAX_DESCRIPTION = 8192;
    static final int MAX_INPUTS = 100;

    /** A draft that passed every check, with its content hash recomputed here. */
    public record ValidDraft(String normalizedVerb, String actionVerb, String description, List<String> inputNames,
            ToolManifest manifest) {
    }

    private final ContractCodec codec;
    private final CandidateValidator validator;

    public DraftIntake(ContractCodec codec, OpenApiIngestor ingestor) {
        this.codec = codec;
        this.validator = ingestor.validator();
    }

    public ValidDraft check(DraftRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("the body is missing: {normalizedVerb, actionVerb, description,"
                    + " inputNames, manifest}");
        }
        String gap = required("normalizedVerb", request.normalizedVerb());
        String actionVerb = required("actionVerb", request.actionVerb());
        String description = request.description() == null ? null : request.description().strip();
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw new IllegalArgumentException("description: longer than " + MAX_DESCRIPTION + " characters");
        }
        List<String> inputs = inputNames(request.inputNames());
        ToolManifest manifest = manifest(request.manifest());
        if (!manifest.id().startsWith(ID_PREFIX)) {
            throw new IllegalArgumentException("manifest.id: '" + manifest.id() + "' must start with '" + ID_PREFIX
                    + "' (a draft never takes the id of a real tool)");
        }
        if (manifest.binding() != null) {
            throw new IllegalArgumentException("manifest.binding: a draft must not carry an HTTP binding; servers"
                    + " enter the airlock only through a reviewed source");
        }
        if (manifest.healthProbe() != null && manifest.healthProbe().binding() != null) {
            throw new IllegalArgumentException("manifest.healthProbe.binding: a draft must not carry an HTTP binding");
        }
        validator.problem(manifest).ifPresent(problem -> {
            throw new IllegalArgumentException("manifest: " + problem);
        });
        JsonNode properties = manifest.inputSchema() == null ? null : manifest.inputSchema().path("properties");
        List<String> undeclared = inputs.stream()
                .filter(name -> properties == null || !properties.has(name)).toList();
        if (!undeclared.isEmpty()) {
            throw new IllegalArgumentException("manifest.inputSchema: does not declare the gap's inputs " + undeclared);
        }
        ToolManifest hashed;
        try {
            hashed = manifest.withVersion(0, ContentHash.of(manifest, codec.mapper()));
        } catch (UnhashableContent e) {
            UnhashableContent inDraft = e.within("/manifest"); // the field as the client sent it, inside the draft
            throw new ContractViolation(inDraft.pointer(), inDraft.getMessage());
        }
        return new ValidDraft(gap, actionVerb, description, inputs, hashed);
    }

    private ToolManifest manifest(JsonNode json) {
        if (json == null || json.isNull() || !json.isObject()) {
            throw new ContractViolation("/manifest", "field /manifest: a draft tool manifest (a JSON object) is required");
        }
        try {
            return codec.read(json, ToolManifest.class);
        } catch (ContractViolation violation) {
            // name the field from the body's root, as the client sent it
            throw new ContractViolation("/manifest" + violation.pointer(),
                    violation.getMessage().replaceFirst("^field /", "field /manifest/")
                            .replaceFirst("^the document", "field /manifest")
                            .replaceFirst("^tool_manifest: ", "field /manifest: "));
        }
    }

    private static List<String> inputNames(List<String> names) {
        if (names == null) {
            return List.of();
        }
        if (names.size() > MAX_INPUTS) {
            throw new IllegalArgumentException("inputNames: at most " + MAX_INPUTS + " names");
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i) == null || names.get(i).isBlank()) {
                throw new IllegalArgumentException("inputNames[" + i + "]: an input name must not be empty");
            }
        }
        return List.copyOf(names);
    }

    private static String required(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + ": required");
        }
        if (value.length() > MAX_VERB) {
            throw new IllegalArgumentException(field + ": longer than " + MAX_VERB + " characters");
        }
        return value; // as the gap event carried it: the gap's key in both services
    }
}
