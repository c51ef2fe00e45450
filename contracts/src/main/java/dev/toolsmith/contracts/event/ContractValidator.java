package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import dev.toolsmith.contracts.schema.SchemaProblem;
import java.util.EnumMap;
import java.util.Map;

/**
 * Validates messages against the contracts' JSON Schemas (draft 2020-12). Schemas refer to each other by
 * their {@code $id} under {@value #SCHEMA_BASE}, mapped to the classpath. Thread-safe; build once.
 */
public final class ContractValidator {

    public static final String SCHEMA_BASE = "https://toolsmith.dev/schemas/";

    private final Map<MessageType, JsonSchema> schemas = new EnumMap<>(MessageType.class);

    public ContractValidator() {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
                builder -> builder.schemaMappers(mappers -> mappers.mapPrefix(SCHEMA_BASE, "classpath:schemas/")));
        SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
        for (MessageType type : MessageType.values()) {
            JsonSchema schema = factory.getSchema(SchemaLocation.of("classpath:" + type.schemaResource()), config);
            schema.initializeValidators();
            schemas.put(type, schema);
        }
    }

    /** Throws {@link ContractViolation} naming the first offending field, if any. */
    public void validate(MessageType type, JsonNode message) {
        if (message == null || message.isNull() || message.isMissingNode()) {
            throw new ContractViolation("", type.name().toLowerCase() + ": the message is empty");
        }
        SchemaProblem.firstOf(schemas.get(type).validate(message)).ifPresent(first -> {
            throw new ContractViolation(first.pointer(), first.pointer().isEmpty() ? first.describe()
                    : "field " + first.describe());
        });
    }
}
