package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Turns an OpenAPI schema object into a self-contained JSON Schema (draft 2020-12): internal
 * {@code $ref}s inlined (a recursive reference is cut at its first repetition, and inlining stops at a
 * depth and size budget, leaving an open schema that says why), OpenAPI 3.0 dialect translated
 * ({@code nullable}, boolean {@code exclusiveMinimum}, {@code example}, {@code type: file}), vendor
 * keywords dropped, and keyword values that would make the schema invalid (a string where a number
 * belongs, a regex Java cannot compile) dropped with a warning. {@code allOf}/{@code oneOf}/{@code anyOf}
 * stay as they are, with their members translated.
 */
final class SchemaTranslator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<String> SIMPLE_TYPES = Set.of("string", "number", "integer", "boolean", "array",
            "object", "null");
    private static final Set<String> SCHEMA_MAPS = Set.of("properties", "patternProperties", "$defs", "definitions",
            "dependentSchemas");
    private static final Set<String> SCHEMA_ARRAYS = Set.of("allOf", "anyOf", "oneOf", "prefixItems");
    private static final Set<String> SINGLE_SCHEMAS = Set.of("additionalProperties", "unevaluatedProperties",
            "unevaluatedItems", "not", "if", "then", "else", "contains", "propertyNames");
    private static final Set<String> NUMBERS = Set.of("minimum", "maximum");
    private static final Set<String> COUNTS = Set.of("minLength", "maxLength", "minItems", "maxItems", "minProperties",
            "maxProperties", "minContains", "maxContains");
    private static final Set<String> FLAGS = Set.of("uniqueItems", "readOnly", "writeOnly", "deprecated");
    private static final Set<String> TEXTS = Set.of("title", "description", "format", "contentMediaType",
            "contentEncoding", "$comment");

    private final Dereferencer refs;
    private final int maxRefDepth;
    private final int maxNodes;

    SchemaTranslator(Dereferencer refs, int maxRefDepth, int maxNodes) {
        this.refs = refs;
        this.maxRefDepth = maxRefDepth;
        this.maxNodes = maxNodes;
    }

    /** Translates one schema with a fresh budget; problems it worked around are added to {@code warnings}. */
    JsonNode translate(JsonNode schema, Set<String> warnings) {
        Run run = new Run(warnings);
        return schema(schema, run);
    }

    private static final class Run {
        final Set<String> warnings;
        final Deque<String> expanding = new ArrayDeque<>();
        int nodes;

        Run(Set<String> warnings) {
            this.warnings = warnings;
        }
    }

    private JsonNode schema(JsonNode node, Run run) {
        run.nodes++;
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NODES.objectNode();
        }
        if (node.isBoolean()) {
            return node;
        }
        if (!node.isObject()) {
            run.warnings.add("a schema that is not an object (" + node.getNodeType() + ") was replaced by an open schema");
            return NODES.objectNode();
        }
        String ref = Dereferencer.refOf(node);
        if (ref != null) {
            return reference(ref, (ObjectNode) node, run);
        }
        return translateObject((ObjectNode) node, run);
    }

    private JsonNode reference(String ref, ObjectNode node, Run run) {
        String name = ref.substring(ref.lastIndexOf('/') + 1);
        if (!ref.startsWith("#")) {
            run.warnings.add("external reference " + ref + " left open");
            return NODES.objectNode().put("description", "unresolved reference " + ref);
        }
        JsonNode target = refs.lookup(ref);
        if (target.isMissingNode()) {
            run.warnings.add("dangling reference " + ref + " replaced by an open schema");
            return NODES.objectNode().put("description", "dangling reference " + ref);
        }
        if (run.expanding.contains(ref)) {
            return openStandIn(target, name + " (recursive reference, not expanded further)");
        }
        if (run.expanding.size() >= maxRefDepth || run.nodes >= maxNodes) {
            run.warnings.add("schema truncated: references nest deeper or larger than the limits");
            return openStandIn(target, name + " (not expanded: schema too large)");
        }
        run.expanding.push(ref);
        JsonNode resolved;
        try {
            resolved = schema(target, run);
        } finally {
            run.expanding.pop();
        }
        // Keywords beside $ref (an OpenAPI 3.1 feature, and common in 3.0 documents) refine the target.
        if (resolved.isObject() && node.size() > 1) {
            ObjectNode siblings = node.deepCopy();
            siblings.remove("$ref");
            JsonNode extra = translateObject(siblings, run);
            if (extra.isObject() && extra.size() > 0) {
                ObjectNode merged = ((ObjectNode) resolved).deepCopy();
                extra.fields().forEachRemaining(f -> {
                    if (f.getKey().equals("description") || f.getKey().equals("title") || !merged.has(f.getKey())) {
                        merged.set(f.getKey(), f.getValue());
                    }
                });
                return merged;
            }
        }
        return resolved;
    }

    /** An open schema standing in for one not expanded, keeping its type and description when simple. */
    private static ObjectNode openStandIn(JsonNode target, String why) {
        ObjectNode standIn = NODES.objectNode();
        JsonNode type = target.get("type");
        if (type != null && type.isTextual() && SIMPLE_TYPES.contains(type.asText())) {
            standIn.put("type", type.asText());
        }
        JsonNode description = target.get("description");
        standIn.put("description", description != null && description.isTextual()
                ? description.asText() + " — " + why : why);
        return standIn;
    }

    private JsonNode translateObject(ObjectNode node, Run run) {
        ObjectNode out = NODES.objectNode();
        boolean nullable = false;
        Boolean exclusiveMinimum = null;
        Boolean exclusiveMaximum = null;
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            JsonNode value = field.getValue();
            run.nodes++;
            if (SCHEMA_MAPS.contains(key)) {
                if (value.isObject()) {
                    ObjectNode map = out.putObject(key.equals("definitions") ? "$defs" : key);
                    value.fields().forEachRemaining(p -> map.set(p.getKey(), schema(p.getValue(), run)));
                }
            } else if (SCHEMA_ARRAYS.contains(key)) {
                if (value.isArray() && !value.isEmpty()) {
                    ArrayNode members = out.putArray(key);
                    value.forEach(member -> members.add(schema(member, run)));
                }
            } else if (SINGLE_SCHEMAS.contains(key)) {
                if (value.isObject() || value.isBoolean()) {
                    out.set(key, schema(value, run));
                }
            } else if (key.equals("items")) {
                if (value.isArray()) {
                    if (!value.isEmpty()) {
                        ArrayNode prefix = out.putArray("prefixItems");
                        value.forEach(member -> prefix.add(schema(member, run)));
                    }
                } else if (value.isObject() || value.isBoolean()) {
                    out.set("items", schema(value, run));
                }
            } else if (key.equals("type")) {
                type(value, out, run);
            } else if (key.equals("required")) {
                if (value.isArray()) {
                    Set<String> names = new LinkedHashSet<>();
                    value.forEach(n -> {
                        if (n.isTextual()) {
                            names.add(n.asText());
                        }
                    });
                    ArrayNode required = out.putArray("required");
                    names.forEach(required::add);
                }
            } else if (key.equals("enum")) {
                if (value.isArray() && !value.isEmpty()) {
                    out.set("enum", value.deepCopy());
                }
            } else if (key.equals("const") || key.equals("default")) {
                out.set(key, value.deepCopy());
            } else if (key.equals("example")) {
                if (!node.has("examples")) {
                    out.putArray("examples").add(value.deepCopy());
                }
            } else if (key.equals("examples")) {
                if (value.isArray()) {
                    out.set("examples", value.deepCopy());
                }
            } else if (key.equals("nullable")) {
                nullable = value.asBoolean(false);
            } else if (key.equals("exclusiveMinimum") || key.equals("exclusiveMaximum")) {
                if (value.isBoolean()) {
                    if (key.equals("exclusiveMinimum")) {
                        exclusiveMinimum = value.asBoolean();
                    } else {
                        exclusiveMaximum = value.asBoolean();
                    }
                } else if (value.isNumber()) {
                    out.set(key, value);
                }
            } else if (NUMBERS.contains(key)) {
                JsonNode number = number(value);
                if (number != null) {
                    out.set(key, number);
                }
            } else if (key.equals("multipleOf")) {
                JsonNode number = number(value);
                if (number != null && number.decimalValue().signum() > 0) {
                    out.set(key, number);
                }
            } else if (COUNTS.contains(key)) {
                JsonNode number = number(value);
                if (number != null && number.canConvertToLong() && number.decimalValue().signum() >= 0
                        && number.decimalValue().stripTrailingZeros().scale() <= 0) {
                    out.put(key, number.longValue());
                }
            } else if (FLAGS.contains(key)) {
                if (value.isBoolean()) {
                    out.set(key, value);
                }
            } else if (key.equals("pattern")) {
                if (value.isTextual() && compiles(value.asText())) {
                    out.set(key, value);
                } else {
                    run.warnings.add("pattern " + value + " is not a valid regular expression and was dropped");
                }
            } else if (TEXTS.contains(key)) {
                if (value.isTextual()) {
                    out.set(key, value);
                }
            } else if (key.equals("dependentRequired")) {
                if (value.isObject()) {
                    out.set(key, value.deepCopy());
                }
            }
            // anything else (x-*, discriminator, xml, externalDocs, $id, $schema…) is not JSON Schema
            // validation and is dropped, so the schema stays self-contained and valid
        }
        exclusiveBound(out, exclusiveMinimum, "minimum", "exclusiveMinimum");
        exclusiveBound(out, exclusiveMaximum, "maximum", "exclusiveMaximum");
        return nullable ? nullable(out) : out;
    }

    private static void type(JsonNode value, ObjectNode out, Run run) {
        if (value.isTextual()) {
            String type = normalType(value.asText());
            if (type.equals("file")) {
                out.put("type", "string");
                if (!out.has("format")) {
                    out.put("format", "binary");
                }
            } else if (SIMPLE_TYPES.contains(type)) {
                out.put("type", type);
            } else {
                run.warnings.add("unknown type '" + value.asText() + "' dropped");
            }
        } else if (value.isArray()) {
            Set<String> types = new LinkedHashSet<>();
            value.forEach(t -> {
                String type = normalType(t.asText());
                if (SIMPLE_TYPES.contains(type)) {
                    types.add(type);
                }
            });
            if (!types.isEmpty()) {
                ArrayNode array = out.putArray("type");
                types.forEach(array::add);
            }
        }
    }

    private static String normalType(String type) {
        return switch (type.trim().toLowerCase(Locale.ROOT)) {
            case "int", "int32", "int64", "long" -> "integer";
            case "float", "double", "decimal" -> "number";
            case "bool" -> "boolean";
            case "date", "datetime", "date-time", "text" -> "string";
            case "list" -> "array";
            case "map", "dict" -> "object";
            default -> type.trim().toLowerCase(Locale.ROOT);
        };
    }

    private static JsonNode number(JsonNode value) {
        if (value.isNumber()) {
            return value;
        }
        if (value.isTextual()) {
            try {
                return NODES.numberNode(new java.math.BigDecimal(value.asText().trim()));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static void exclusiveBound(ObjectNode out, Boolean exclusive, String bound, String exclusiveKey) {
        if (Boolean.TRUE.equals(exclusive) && out.has(bound)) {
            out.set(exclusiveKey, out.remove(bound));
        }
    }

    /** OpenAPI 3.0 {@code nullable: true}: null joins the allowed types (or the schema is OR-ed with null). */
    private static JsonNode nullable(ObjectNode out) {
        JsonNode type = out.get("type");
        if (out.has("enum") && !containsNull(out.get("enum"))) {
            ((ArrayNode) out.get("enum")).addNull();
        }
        if (type != null && type.isTextual()) {
            out.putArray("type").add(type.asText()).add("null");
            return out;
        }
        if (type != null && type.isArray()) {
            if (!containsText(type, "null")) {
                ((ArrayNode) type).add("null");
            }
            return out;
        }
        ObjectNode either = NODES.objectNode();
        either.putArray("anyOf").add(out).add(NODES.objectNode().put("type", "null"));
        return either;
    }

    private static boolean containsNull(JsonNode array) {
        for (JsonNode n : array) {
            if (n.isNull()) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsText(JsonNode array, String text) {
        for (JsonNode n : array) {
            if (text.equals(n.asText())) {
                return true;
            }
        }
        return false;
    }

    private static boolean compiles(String regex) {
        try {
            Pattern.compile(regex);
            return true;
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /** The names of an object schema's properties, if it is a plain one (no composition at the top). */
    static List<String> propertyNames(JsonNode schema) {
        List<String> names = new java.util.ArrayList<>();
        JsonNode properties = schema.get("properties");
        if (properties != null) {
            properties.fieldNames().forEachRemaining(names::add);
        }
        return names;
    }
}
