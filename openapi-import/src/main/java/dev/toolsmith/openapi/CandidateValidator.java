package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.toolsmith.contracts.event.ContractValidator;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.Comparator;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a candidate before anyone sees it: its input and output schemas against the JSON Schema
 * 2020-12 meta-schema (networknt, bundled offline), and the whole manifest against the contracts'
 * tool-manifest schema. Thread-safe; build once.
 */
public final class CandidateValidator {

    private final JsonSchema metaSchema;
    private final ContractValidator contracts;
    private final ObjectMapper mapper;

    public CandidateValidator(ContractValidator contracts, ObjectMapper mapper) {
        this.contracts = contracts;
        this.mapper = mapper;
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        this.metaSchema = factory.getSchema(SchemaLocation.of(SchemaId.V202012));
        this.metaSchema.initializeValidators();
    }

    /** Why the manifest is not a valid tool, or empty when it is. */
    public Optional<String> problem(ToolManifest manifest) {
        Optional<String> input = schemaProblem("input schema", manifest.inputSchema());
        if (input.isPresent()) {
            return input;
        }
        Optional<String> output = schemaProblem("output schema", manifest.outputSchema());
        if (output.isPresent()) {
            return output;
        }
        try {
            contracts.validate(MessageType.TOOL_MANIFEST, mapper.valueToTree(manifest));
            return Optional.empty();
        } catch (ContractViolation violation) {
            return Optional.of("the manifest breaks the tool-manifest contract: " + violation.getMessage());
        }
    }

    /** Why {@code schema} is not a valid JSON Schema 2020-12, or empty when it is (or is absent). */
    public Optional<String> schemaProblem(String what, JsonNode schema) {
        if (schema == null || schema.isNull()) {
            return Optional.empty();
        }
        Set<ValidationMessage> problems = metaSchema.validate(schema);
        return problems.stream().min(Comparator.comparing(ValidationMessage::getMessage))
                .map(first -> what + " is not valid JSON Schema: " + first.getMessage());
    }
}
