package dev.toolsmith.capabilities.execution;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.SpecVersionDetector;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.schema.SchemaProblem;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Checks a plugin's inputs and outputs against its manifest's JSON Schemas. Schemas are compiled once
 * per plugin revision (tool id, version, content hash) and kept: compiling costs far more than
 * validating, and the hot path validates every step twice.
 */
@ApplicationScoped
public class SchemaValidation {

    private static final SchemaValidatorsConfig CONFIG = SchemaValidatorsConfig.builder()
            .pathType(PathType.JSON_POINTER).build();

    private record Compiled(Optional<JsonSchema> input, Optional<JsonSchema> output) {
    }

    private final ConcurrentMap<String, Compiled> cache = new ConcurrentHashMap<>();

    /** The first problem of {@code inputs}, naming the field, e.g. {@code input /value: string found, number expected}. */
    public Optional<String> checkInputs(Plugin plugin, JsonNode inputs) {
        return compiled(plugin).input().flatMap(schema -> firstProblem(schema, inputs, "input"));
    }

    public Optional<String> checkOutputs(Plugin plugin, JsonNode outputs) {
        return compiled(plugin).output().flatMap(schema -> firstProblem(schema, outputs, "output"));
    }

    private Compiled compiled(Plugin plugin) {
        return cache.computeIfAbsent(plugin.revisionKey(), key -> new Compiled(
                compile(plugin.manifest().inputSchema()), compile(plugin.manifest().outputSchema())));
    }

    private static Optional<JsonSchema> compile(JsonNode schema) {
        if (schema == null || schema.isNull() || schema.isEmpty()) {
            return Optional.empty();
        }
        SpecVersion.VersionFlag version = SpecVersionDetector.detectOptionalVersion(schema, false)
                .orElse(SpecVersion.VersionFlag.V202012);
        JsonSchema compiled = JsonSchemaFactory.getInstance(version).getSchema(schema, CONFIG);
        compiled.initializeValidators();
        return Optional.of(compiled);
    }

    private static Optional<String> firstProblem(JsonSchema schema, JsonNode document, String side) {
        return SchemaProblem.firstOf(schema.validate(document)).map(first -> side + " " + first.describe());
    }
}
