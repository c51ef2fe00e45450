package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

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
        Set<ValidationMessage> problems = schemas.get(type).validate(message);
        problems.stream().min(Comparator.comparing((ValidationMessage m) -> m.getInstanceLocation().toString())
                .thenComparing(ValidationMessage::getMessage)).ifPresent(first -> {
                    throw new ContractViolation(pointerOf(first), describe(first));
                });
    }

    private static String pointerOf(ValidationMessage problem) {
        String location = problem.getInstanceLocation().toString();
        String property = problem.getProperty();
        // "required" problems sit on the parent object; point at the missing field itself.
        if ("required".equals(problem.getType()) && property != null) {
            return location + "/" + property;
        }
        return location;
    }

    private static String describe(ValidationMessage problem) {
        String pointer = pointerOf(problem);
        String field = pointer.isEmpty() ? "the document" : "field " + pointer;
        String text = problem.getMessage();
        // networknt prefixes the message with the instance location; say it once, in our words.
        String location = problem.getInstanceLocation().toString();
        if (!location.isEmpty() && text.startsWith(location + ": ")) {
            text = text.substring(location.length() + 2);
        } else if (text.startsWith(": ")) {
            text = text.substring(2);
        }
        return field + ": " + text;
    }
}
