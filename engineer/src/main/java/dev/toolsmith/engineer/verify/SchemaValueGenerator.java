package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Makes a value that satisfies a JSON Schema, deterministically, so a generated suite is the same every
 * time it is generated and a reviewer can read it. Uses, in order: {@code const}, {@code default},
 * {@code examples}, {@code enum}; otherwise builds a value from the type and its constraints (formats,
 * lengths, bounds, simple patterns, item and property counts). {@code full} also fills optional
 * properties, to exercise every input of a binding; the minimal form fills only required ones.
 * A {@code variant} number shifts generated scalars, so items of a unique array differ.
 */
public final class SchemaValueGenerator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 16;

    private final boolean full;
    private final boolean preferExamples;

    /**
     * @param full fill optional object properties too
     * @param preferExamples take {@code default}/{@code examples} before generating
     */
    public SchemaValueGenerator(boolean full, boolean preferExamples) {
        this.full = full;
        this.preferExamples = preferExamples;
    }

    public JsonNode generate(JsonNode schema) {
        return value(schema, 0, 0);
    }

    private JsonNode value(JsonNode schema, int depth, int variant) {
        if (schema == null || !schema.isObject()) {
            return NODES.textNode("value" + suffix(variant));
        }
        if (schema.has("const")) {
            return schema.get("const").deepCopy();
        }
        if (preferExamples && schema.has("default") && !schema.get("default").isNull()) {
            return schema.get("default").deepCopy();
        }
        JsonNode examples = schema.get("examples");
        if (preferExamples && examples != null && examples.isArray() && !examples.isEmpty() && !examples.get(0).isNull()) {
            return examples.get(Math.min(variant, examples.size() - 1)).deepCopy();
        }
        JsonNode values = schema.get("enum");
        if (values != null && values.isArray() && !values.isEmpty()) {
            // an empty string is a legal enum member but a useless sample (and an empty path segment)
            for (int i = 0; i < values.size(); i++) {
                JsonNode candidate = values.get((variant + i) % values.size());
                if (!candidate.isNull() && !(candidate.isTextual() && candidate.asText().isEmpty())) {
                    return candidate.deepCopy();
                }
            }
            return values.get(0).deepCopy();
        }
        if (depth > MAX_DEPTH) {
            return NODES.nullNode();
        }
        JsonNode allOf = schema.get("allOf");
        if (allOf != null && allOf.isArray() && !allOf.isEmpty()) {
            return value(mergeAllOf(schema), depth + 1, variant);
        }
        for (String choice : List.of("oneOf", "anyOf")) {
            JsonNode options = schema.get(choice);
            if (options != null && options.isArray() && !options.isEmpty()) {
                JsonNode option = firstNonNullOption(options);
                ObjectNode merged = ((ObjectNode) schema.deepCopy());
                merged.remove(choice);
                if (option.isObject()) {
                    option.fields().forEachRemaining(e -> {
                        if (!merged.has(e.getKey()) || e.getKey().equals("properties") || e.getKey().equals("required")) {
                            merged.set(e.getKey(), e.getValue());
                        }
                    });
                }
                return value(merged, depth + 1, variant);
            }
        }
        return switch (typeOf(schema)) {
            case "object" -> object(schema, depth, variant);
            case "array" -> array(schema, depth, variant);
            case "integer" -> integer(schema, variant);
            case "number" -> number(schema, variant);
            case "boolean" -> NODES.booleanNode(variant % 2 == 0);
            case "null" -> NODES.nullNode();
            default -> string(schema, variant);
        };
    }

    static String typeOf(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && type.isTextual()) {
            return type.asText();
        }
        if (type != null && type.isArray()) {
            for (JsonNode t : type) {
                if (!"null".equals(t.asText())) {
                    return t.asText();
                }
            }
            return "null";
        }
        if (schema.has("properties") || schema.has("additionalProperties") || schema.has("required")) {
            return "object";
        }
        if (schema.has("items") || schema.has("prefixItems")) {
            return "array";
        }
        if (schema.has("minimum") || schema.has("maximum") || schema.has("exclusiveMinimum")
                || schema.has("exclusiveMaximum") || schema.has("multipleOf")) {
            return "number";
        }
        return "string";
    }

    private static JsonNode firstNonNullOption(JsonNode options) {
        for (JsonNode option : options) {
            if (!(option.isObject() && "null".equals(option.path("type").asText()))) {
                return option;
            }
        }
        return options.get(0);
    }

    private static ObjectNode mergeAllOf(JsonNode schema) {
        ObjectNode merged = ((ObjectNode) schema.deepCopy());
        merged.remove("allOf");
        ObjectNode properties = merged.has("properties") && merged.get("properties").isObject()
                ? (ObjectNode) merged.get("properties") : NODES.objectNode();
        ArrayNode required = merged.has("required") && merged.get("required").isArray()
                ? (ArrayNode) merged.get("required") : NODES.arrayNode();
        for (JsonNode member : schema.get("allOf")) {
            JsonNode part = member.has("allOf") ? mergeAllOf(member) : member;
            if (!part.isObject()) {
                continue;
            }
            part.fields().forEachRemaining(e -> {
                switch (e.getKey()) {
                    case "properties" -> e.getValue().fields().forEachRemaining(p -> properties.set(p.getKey(), p.getValue()));
                    case "required" -> e.getValue().forEach(required::add);
                    default -> {
                        if (!merged.has(e.getKey())) {
                            merged.set(e.getKey(), e.getValue());
                        }
                    }
                }
            });
        }
        if (!properties.isEmpty()) {
            merged.set("properties", properties);
        }
        if (!required.isEmpty()) {
            merged.set("required", required);
        }
        return merged;
    }

    private JsonNode object(JsonNode schema, int depth, int variant) {
        ObjectNode out = NODES.objectNode();
        JsonNode properties = schema.path("properties");
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(n -> required.add(n.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> property = it.next();
            boolean isRequired = required.contains(property.getKey());
            if (!isRequired && !(full && depth < 3)) {
                continue;
            }
            if (property.getValue().path("readOnly").asBoolean(false) && !isRequired) {
                continue;
            }
            JsonNode generated = value(property.getValue(), depth + 1, variant);
            if (generated.isNull() && !allowsNull(property.getValue()) && !isRequired) {
                continue;
            }
            out.set(property.getKey(), generated);
        }
        // a required name without a property schema still needs a value
        for (String name : required) {
            if (!out.has(name)) {
                JsonNode additional = schema.get("additionalProperties");
                out.set(name, value(additional != null && additional.isObject() ? additional : null, depth + 1, variant));
            }
        }
        int minProperties = schema.path("minProperties").asInt(0);
        JsonNode additional = schema.get("additionalProperties");
        for (int i = 0; out.size() < minProperties && i < 20; i++) {
            out.set("key" + (i + 1), value(additional != null && additional.isObject() ? additional : null, depth + 1, i));
        }
        return out;
    }

    private JsonNode array(JsonNode schema, int depth, int variant) {
        ArrayNode out = NODES.arrayNode();
        int min = schema.path("minItems").asInt(0);
        int max = schema.has("maxItems") ? schema.get("maxItems").asInt() : Integer.MAX_VALUE;
        int count = Math.min(Math.max(min, 1), max);
        if (count == 0) {
            return out;
        }
        JsonNode prefix = schema.get("prefixItems");
        JsonNode items = schema.get("items");
        boolean unique = schema.path("uniqueItems").asBoolean(false);
        for (int i = 0; i < count; i++) {
            JsonNode itemSchema = prefix != null && prefix.isArray() && i < prefix.size() ? prefix.get(i) : items;
            JsonNode item = value(itemSchema, depth + 1, unique ? variant + i : variant);
            if (unique && containsEqual(out, item)) {
                break; // an enum or const item cannot repeat; fewer items is still valid unless minItems says otherwise
            }
            out.add(item);
        }
        return out;
    }

    private static boolean containsEqual(ArrayNode array, JsonNode item) {
        for (JsonNode element : array) {
            if (element.equals(item)) {
                return true;
            }
        }
        return false;
    }

    private static boolean allowsNull(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type == null) {
            return true;
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if ("null".equals(t.asText())) {
                    return true;
                }
            }
        }
        return "null".equals(type.asText());
    }

    private static JsonNode integer(JsonNode schema, int variant) {
        BigDecimal low = lowerBound(schema, true);
        BigDecimal high = upperBound(schema, true);
        BigDecimal value = low != null ? low.add(BigDecimal.valueOf(variant)) : BigDecimal.valueOf(1 + variant);
        if (high != null && value.compareTo(high) > 0) {
            value = high;
        }
        if (low != null && value.compareTo(low) < 0) {
            value = low;
        }
        long result = value.setScale(0, java.math.RoundingMode.CEILING).longValue();
        long multiple = schema.path("multipleOf").asLong(0);
        if (multiple > 1 && result % multiple != 0) {
            result = ((result / multiple) + 1) * multiple;
        }
        return NODES.numberNode(result);
    }

    private static JsonNode number(JsonNode schema, int variant) {
        BigDecimal low = lowerBound(schema, false);
        BigDecimal high = upperBound(schema, false);
        BigDecimal value;
        if (low != null && high != null) {
            value = low.add(high).divide(BigDecimal.valueOf(2));
        } else if (low != null) {
            value = low.add(BigDecimal.ONE).add(BigDecimal.valueOf(variant));
        } else if (high != null) {
            value = high.subtract(BigDecimal.ONE);
        } else {
            value = new BigDecimal("1.5").add(BigDecimal.valueOf(variant));
        }
        JsonNode multiple = schema.get("multipleOf");
        if (multiple != null && multiple.isNumber() && multiple.decimalValue().signum() > 0) {
            BigDecimal step = multiple.decimalValue();
            value = value.divide(step, 0, java.math.RoundingMode.CEILING).multiply(step);
        }
        return NODES.numberNode(value.stripTrailingZeros());
    }

    private static BigDecimal lowerBound(JsonNode schema, boolean integral) {
        BigDecimal bound = null;
        if (schema.path("minimum").isNumber()) {
            bound = schema.get("minimum").decimalValue();
        }
        if (schema.path("exclusiveMinimum").isNumber()) {
            BigDecimal exclusive = schema.get("exclusiveMinimum").decimalValue()
                    .add(integral ? BigDecimal.ONE : new BigDecimal("0.5"));
            bound = bound == null || exclusive.compareTo(bound) > 0 ? exclusive : bound;
        }
        return bound;
    }

    private static BigDecimal upperBound(JsonNode schema, boolean integral) {
        BigDecimal bound = null;
        if (schema.path("maximum").isNumber()) {
            bound = schema.get("maximum").decimalValue();
        }
        if (schema.path("exclusiveMaximum").isNumber()) {
            BigDecimal exclusive = schema.get("exclusiveMaximum").decimalValue()
                    .subtract(integral ? BigDecimal.ONE : new BigDecimal("0.5"));
            bound = bound == null || exclusive.compareTo(bound) < 0 ? exclusive : bound;
        }
        return bound;
    }

    private static JsonNode string(JsonNode schema, int variant) {
        String format = schema.path("format").asText("").toLowerCase(Locale.ROOT);
        String text = switch (format) {
            case "date" -> "2024-01-0" + (1 + variant % 9);
            case "date-time" -> "2024-01-0" + (1 + variant % 9) + "T10:00:00Z";
            case "time" -> "10:00:0" + (variant % 10) + "Z";
            case "email" -> "user" + suffix(variant) + "@example.com";
            case "uuid" -> "123e4567-e89b-12d3-a456-42661417400" + (variant % 10);
            case "uri", "url", "iri" -> "https://example.com/item" + suffix(variant);
            case "uri-reference", "iri-reference" -> "/item" + suffix(variant);
            case "hostname", "idn-hostname" -> "host" + suffix(variant) + ".example.com";
            case "ipv4" -> "192.0.2." + (1 + variant % 250);
            case "ipv6" -> "2001:db8::" + (1 + variant % 9);
            case "byte" -> "dmFsdWU=";
            case "binary" -> "value";
            case "password" -> "secret" + suffix(variant);
            case "int32", "int64" -> String.valueOf(1 + variant);
            case "duration" -> "PT1H";
            case "regex" -> "^a";
            case "json-pointer" -> "/a";
            default -> null;
        };
        String pattern = schema.path("pattern").asText(null);
        if (text == null && pattern != null) {
            text = PatternSampler.sample(pattern, variant);
        }
        if (text == null) {
            text = "value" + suffix(variant);
        }
        int min = schema.path("minLength").asInt(0);
        int max = schema.has("maxLength") ? schema.get("maxLength").asInt() : Integer.MAX_VALUE;
        if (format.isEmpty() && pattern == null) {
            StringBuilder padded = new StringBuilder(text);
            while (padded.length() < min) {
                padded.append('x');
            }
            text = padded.length() > max ? padded.substring(0, Math.max(max, 0)) : padded.toString();
        } else if (text.length() < min && pattern == null) {
            text = text + "x".repeat(min - text.length());
        }
        return NODES.textNode(text);
    }

    private static String suffix(int variant) {
        return variant == 0 ? "" : String.valueOf(variant + 1);
    }
}
