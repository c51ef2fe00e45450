package dev.toolsmith.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.AnnotationKeyword;
import com.networknt.schema.JsonMetaSchema;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import dev.toolsmith.contracts.schema.SchemaProblem;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates a tool's inputs and outputs against its JSON Schemas (draft 2020-12 unless the schema names
 * another). Compiled schemas are cached, so a plugin's schema is compiled once however often it runs.
 * Schemas that came from OpenAPI 3.0 may still say {@code nullable: true}; that is read as "null is
 * allowed too" rather than ignored, since real APIs do send those nulls. Thread-safe.
 */
public final class SchemaChecker {

    private static final int MAX_CACHED = 4_096;

    private final JsonSchemaFactory factory;
    private final SchemaValidatorsConfig config;
    private final Map<JsonNode, JsonSchema> compiled = new ConcurrentHashMap<>();

    /** @param assertFormats whether {@code format} (date, email, uuid...) is checked or only annotates */
    public SchemaChecker(boolean assertFormats) {
        // OpenAPI vocabulary (example, xml, discriminator, x-...) is annotation, never a reason to fail or log.
        JsonMetaSchema metaSchema = JsonMetaSchema.builder(JsonMetaSchema.getV202012())
                .unknownKeywordFactory((keyword, context) -> new AnnotationKeyword(keyword))
                .build();
        this.factory = JsonSchemaFactory.builder(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012))
                .metaSchema(metaSchema)
                .defaultMetaSchemaIri(metaSchema.getIri())
                .build();
        this.config = SchemaValidatorsConfig.builder()
                .pathType(PathType.JSON_POINTER)
                .formatAssertionsEnabled(assertFormats)
                .build();
    }

    /** The first problem of {@code instance} against {@code schema}, if any ({@link SchemaProblem#describe()}). */
    public Optional<String> firstProblem(JsonNode schema, JsonNode instance) {
        if (schema == null || schema.isNull() || schema.isMissingNode() || schema.isEmpty() && schema.isObject()) {
            return Optional.empty();
        }
        return SchemaProblem.firstOf(compile(schema).validate(instance)).map(SchemaProblem::describe);
    }

    private JsonSchema compile(JsonNode schema) {
        JsonSchema cached = compiled.get(schema);
        if (cached != null) {
            return cached;
        }
        if (compiled.size() >= MAX_CACHED) {
            compiled.clear(); // plugins are few; a flood of distinct schemas must not grow memory without bound
        }
        JsonNode normalized = withoutOpenApiNullable(schema.deepCopy());
        JsonSchema built = factory.getSchema(normalized, config);
        built.initializeValidators();
        compiled.put(schema, built);
        return built;
    }

    /** {@code {type: string, nullable: true}} becomes {@code {type: [string, null]}}, recursively. */
    static JsonNode withoutOpenApiNullable(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("nullable").asBoolean(false)) {
                JsonNode type = object.get("type");
                if (type != null && type.isTextual()) {
                    ArrayNode types = object.arrayNode().add(type.asText()).add("null");
                    object.set("type", types);
                } else if (type instanceof ArrayNode array && !containsText(array, "null")) {
                    array.add("null");
                }
                JsonNode values = object.get("enum");
                if (values instanceof ArrayNode array && !array.isEmpty() && !containsNull(array)) {
                    array.addNull();
                }
            }
            if (object.path("nullable").isBoolean()) { // a property *named* nullable holds a schema: keep it
                object.remove("nullable");
            }
            object.fields().forEachRemaining(entry -> withoutOpenApiNullable(entry.getValue()));
        } else if (node instanceof ArrayNode array) {
            array.forEach(SchemaChecker::withoutOpenApiNullable);
        }
        return node;
    }

    private static boolean containsText(ArrayNode array, String text) {
        for (JsonNode element : array) {
            if (text.equals(element.asText())) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsNull(ArrayNode array) {
        for (JsonNode element : array) {
            if (element.isNull()) {
                return true;
            }
        }
        return false;
    }
}
