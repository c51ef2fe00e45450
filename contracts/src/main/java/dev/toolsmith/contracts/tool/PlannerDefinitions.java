package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * Converts the planner world's {@code inputDefinitions} lists into JSON Schema. Planners describe a
 * parameter as {@code {name, type | valueType, required, description}} with types such as
 * {@code string}, {@code number}, {@code boolean}, {@code array}, {@code object} or {@code any}.
 */
final class PlannerDefinitions {

    private PlannerDefinitions() {
    }

    static JsonNode toJsonSchema(JsonNode schemaOrDefinitions) {
        if (schemaOrDefinitions == null || !schemaOrDefinitions.isArray()) {
            return schemaOrDefinitions;
        }
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode schema = f.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = f.arrayNode();
        for (JsonNode definition : schemaOrDefinitions) {
            String name = definition.path("name").asText("");
            if (name.isEmpty()) {
                continue;
            }
            ObjectNode property = properties.putObject(name);
            String type = definition.hasNonNull("type") ? definition.get("type").asText()
                    : definition.path("valueType").asText("any");
            String jsonType = jsonSchemaType(type);
            if (jsonType != null) {
                property.put("type", jsonType);
            }
            if (definition.hasNonNull("description")) {
                property.put("description", definition.get("description").asText());
            }
            if (definition.path("required").asBoolean(false)) {
                required.add(name);
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        return schema;
    }

    private static String jsonSchemaType(String plannerType) {
        return switch (plannerType.toLowerCase(Locale.ROOT)) {
            case "string", "text", "url", "date" -> "string";
            case "number", "float", "double", "decimal" -> "number";
            case "integer", "int", "long" -> "integer";
            case "boolean", "bool" -> "boolean";
            case "array", "list" -> "array";
            case "object", "map", "json" -> "object";
            default -> null; // "any" and unknown planner types accept every JSON value
        };
    }
}
