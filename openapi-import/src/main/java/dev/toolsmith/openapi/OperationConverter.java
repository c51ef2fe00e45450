package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Converts one OpenAPI operation into the parts of a candidate tool: the input schema that merges its
 * path, query, header and cookie parameters with its request body (a name taken twice is prefixed with
 * its location), the HTTP binding that says where each input travels, the output schema of its success
 * response, its risk and its auth.
 */
final class OperationConverter {

    /** Headers the HTTP layer sets itself; OpenAPI says parameters with these names are ignored. */
    private static final Set<String> RESERVED_HEADERS = Set.of("accept", "content-type", "authorization");
    private static final List<String> LOCATION_ORDER = List.of("path", "query", "header", "cookie");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The converted parts of one operation (before naming and the health probe). */
    record Converted(ObjectNode inputSchema, JsonNode outputSchema, HttpBinding binding, Risk risk,
            boolean hasRequiredInputs, JsonNode operation) {
    }

    /** Why an operation cannot become a tool. */
    static final class NotConvertible extends Exception {
        NotConvertible(String message) {
            super(message, null, false, false);
        }
    }

    private final Dereferencer refs;
    private final SchemaTranslator schemas;
    private final ServerResolver servers;
    private final AuthResolver auth;
    private final int maxOperationNodes;

    OperationConverter(Dereferencer refs, SchemaTranslator schemas, ServerResolver servers, AuthResolver auth,
            int maxOperationNodes) {
        this.refs = refs;
        this.schemas = schemas;
        this.servers = servers;
        this.auth = auth;
        this.maxOperationNodes = maxOperationNodes;
    }

    Converted convert(String method, String path, JsonNode pathItem, JsonNode operation, Set<String> warnings)
            throws NotConvertible {
        String serverUrl = servers.serverUrl(pathItem, operation)
                .orElseThrow(() -> new NotConvertible(servers.whyNone()));
        AuthBinding authBinding = auth.resolve(operation, warnings);
        List<JsonNode> parameters = parameters(pathItem, operation, authBinding, warnings);

        ObjectNode properties = NODES.objectNode();
        Set<String> required = new LinkedHashSet<>();
        Set<String> taken = new HashSet<>();
        List<ParameterBinding> bindings = new ArrayList<>();
        for (String location : LOCATION_ORDER) {
            for (JsonNode parameter : parameters) {
                if (!location.equals(parameter.path("in").asText())) {
                    continue;
                }
                String wireName = parameter.path("name").asText();
                String name = claim(wireName, location, taken);
                boolean isRequired = location.equals("path") || parameter.path("required").asBoolean(false);
                properties.set(name, parameterSchema(parameter, warnings));
                if (isRequired) {
                    required.add(name);
                }
                bindings.add(new ParameterBinding(name, wireName, ParameterLocation.valueOf(location.toUpperCase(
                        Locale.ROOT)), style(parameter, location), explode(parameter, location), isRequired));
            }
        }
        BodyEncoding encoding = requestBody(operation, properties, required, taken, bindings, warnings);

        ObjectNode input = NODES.objectNode().put("type", "object");
        input.set("properties", properties);
        if (!required.isEmpty()) {
            ArrayNode list = input.putArray("required");
            required.forEach(list::add);
        }
        HttpBinding binding = new HttpBinding(method.toUpperCase(Locale.ROOT), serverUrl, path, bindings, encoding,
                authBinding, 0, 0);
        return new Converted(input, output(operation, warnings), binding, risk(method), !required.isEmpty(),
                dereferencedOperation(method, path, operation, parameters));
    }

    private List<JsonNode> parameters(JsonNode pathItem, JsonNode operation, AuthBinding authBinding,
            Set<String> warnings) throws NotConvertible {
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        for (JsonNode list : new JsonNode[] {pathItem.get("parameters"), operation.get("parameters")}) {
            if (list == null || !list.isArray()) {
                continue;
            }
            for (JsonNode raw : list) {
                JsonNode parameter = refs.follow(raw);
                if (parameter.isMissingNode()) {
                    warnings.add("a parameter reference " + Dereferencer.refOf(raw) + " does not resolve; skipped");
                    continue;
                }
                String name = parameter.path("name").asText("");
                String in = parameter.path("in").asText("").toLowerCase(Locale.ROOT);
                if (name.isEmpty() || !LOCATION_ORDER.contains(in)) {
                    warnings.add("a parameter without a name or a valid location was skipped");
                    continue;
                }
                if (in.equals("header") && RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                    continue;
                }
                if (isAuthParameter(name, in, authBinding)) {
                    continue; // the approval's secret fills it
                }
                byKey.put(in + ":" + (in.equals("header") ? name.toLowerCase(Locale.ROOT) : name), parameter);
            }
        }
        return new ArrayList<>(byKey.values());
    }

    private static boolean isAuthParameter(String name, String in, AuthBinding auth) {
        if (auth.parameterName() == null) {
            return false;
        }
        return switch (auth.scheme()) {
            case API_KEY_HEADER -> in.equals("header") && name.equalsIgnoreCase(auth.parameterName());
            case API_KEY_QUERY -> in.equals("query") && name.equals(auth.parameterName());
            case API_KEY_COOKIE -> in.equals("cookie") && name.equals(auth.parameterName());
            default -> false;
        };
    }

    private JsonNode parameterSchema(JsonNode parameter, Set<String> warnings) {
        JsonNode source = parameter.get("schema");
        if (source == null && parameter.path("content").isObject()) {
            for (JsonNode media : parameter.get("content")) {
                source = media.get("schema");
                break;
            }
        }
        JsonNode translated = source == null ? NODES.objectNode().put("type", "string")
                : schemas.translate(source, warnings);
        ObjectNode schema = translated.isObject() ? (ObjectNode) translated : NODES.objectNode();
        String description = parameter.path("description").asText("");
        if (!description.isBlank() && !schema.has("description")) {
            schema.put("description", description);
        }
        if (parameter.has("example") && !schema.has("examples")) {
            schema.putArray("examples").add(parameter.get("example").deepCopy());
        }
        if (parameter.path("deprecated").asBoolean(false)) {
            schema.put("deprecated", true);
        }
        return schema;
    }

    private static String style(JsonNode parameter, String location) {
        String style = parameter.path("style").asText("");
        if (!style.isEmpty()) {
            return style;
        }
        return location.equals("query") || location.equals("cookie") ? "form" : "simple";
    }

    private static Boolean explode(JsonNode parameter, String location) {
        if (parameter.has("explode") && parameter.get("explode").isBoolean()) {
            return parameter.get("explode").asBoolean();
        }
        return "form".equals(style(parameter, location));
    }

    private BodyEncoding requestBody(JsonNode operation, ObjectNode properties, Set<String> required,
            Set<String> taken, List<ParameterBinding> bindings, Set<String> warnings) {
        JsonNode body = refs.follow(operation.get("requestBody"));
        if (body == null || body.isMissingNode() || !body.path("content").isObject() || body.path("content").isEmpty()) {
            return BodyEncoding.NONE;
        }
        Map.Entry<String, JsonNode> media = pickMedia(body.get("content"));
        String type = media.getKey().toLowerCase(Locale.ROOT);
        BodyEncoding encoding;
        if (isJson(type)) {
            encoding = BodyEncoding.JSON;
        } else if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
            encoding = BodyEncoding.FORM;
        } else {
            encoding = BodyEncoding.JSON;
            warnings.add("request body media type " + media.getKey() + " is sent as JSON");
        }
        JsonNode source = media.getValue().get("schema");
        JsonNode schema = source == null ? NODES.objectNode() : schemas.translate(source, warnings);
        if (type.startsWith("multipart/form-data") && schema.toString().contains("\"format\":\"binary\"")) {
            // the binding has no multipart encoding yet: say so where the reviewer reads it
            warnings.add("a multipart/form-data body with a file (binary) input: the executor sends form bodies as"
                    + " application/x-www-form-urlencoded, so the file travels as text; an API that insists on"
                    + " multipart will refuse it");
        }
        boolean bodyRequired = body.path("required").asBoolean(false);
        Optional<List<ObjectNode>> parts = objectParts(schema);
        if (parts.isPresent()) {
            for (ObjectNode part : parts.get()) {
                Set<String> partRequired = new HashSet<>();
                part.path("required").forEach(n -> partRequired.add(n.asText()));
                part.path("properties").fields().forEachRemaining(property -> {
                    if (property.getValue().path("readOnly").asBoolean(false)) {
                        return; // the server sets it; a caller cannot
                    }
                    String name = claim(property.getKey(), "body", taken);
                    boolean isRequired = partRequired.contains(property.getKey());
                    properties.set(name, property.getValue());
                    if (isRequired) {
                        required.add(name);
                    }
                    bindings.add(new ParameterBinding(name, property.getKey(), ParameterLocation.BODY, null, null,
                            isRequired));
                });
            }
        } else {
            String name = claim("body", "request", taken);
            properties.set(name, schema);
            if (bodyRequired) {
                required.add(name);
            }
            bindings.add(new ParameterBinding(name, null, ParameterLocation.BODY_WHOLE, null, null, bodyRequired));
        }
        return encoding;
    }

    /**
     * The object schemas whose properties become separate inputs: a plain object schema, or an
     * {@code allOf} of plain object schemas. Anything else (arrays, oneOf…) stays one whole-body input.
     */
    private static Optional<List<ObjectNode>> objectParts(JsonNode schema) {
        if (plainObject(schema)) {
            return Optional.of(List.of((ObjectNode) schema));
        }
        if (schema.isObject() && schema.has("allOf") && !schema.has("properties") && !schema.has("anyOf")
                && !schema.has("oneOf") && !schema.has("not")) {
            List<ObjectNode> parts = new ArrayList<>();
            for (JsonNode member : schema.get("allOf")) {
                if (!plainObject(member)) {
                    return Optional.empty();
                }
                parts.add((ObjectNode) member);
            }
            return Optional.of(parts);
        }
        return Optional.empty();
    }

    private static boolean plainObject(JsonNode schema) {
        if (!schema.isObject() || !schema.path("properties").isObject() || schema.path("properties").isEmpty()) {
            return false;
        }
        JsonNode type = schema.get("type");
        boolean objectType = type == null || (type.isTextual() && type.asText().equals("object"));
        return objectType && !schema.has("allOf") && !schema.has("anyOf") && !schema.has("oneOf")
                && !schema.has("not") && !schema.has("if");
    }

    private static Map.Entry<String, JsonNode> pickMedia(JsonNode content) {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        content.fields().forEachRemaining(entries::add);
        return entries.stream().filter(e -> isJson(e.getKey().toLowerCase(Locale.ROOT))).findFirst()
                .or(() -> entries.stream().filter(e -> e.getKey().toLowerCase(Locale.ROOT)
                        .startsWith("application/x-www-form-urlencoded")).findFirst())
                .or(() -> entries.stream().filter(e -> e.getKey().toLowerCase(Locale.ROOT)
                        .startsWith("multipart/form-data")).findFirst())
                .orElse(entries.get(0));
    }

    private static boolean isJson(String mediaType) {
        return mediaType.startsWith("application/json") || mediaType.contains("+json") || mediaType.equals("*/*")
                || mediaType.startsWith("text/json");
    }

    private JsonNode output(JsonNode operation, Set<String> warnings) {
        JsonNode responses = operation.path("responses");
        if (!responses.isObject()) {
            return null;
        }
        List<String> codes = new ArrayList<>();
        responses.fieldNames().forEachRemaining(codes::add);
        Optional<String> success = codes.stream().filter(c -> c.matches("2\\d\\d")).sorted().findFirst()
                .or(() -> codes.stream().filter(c -> c.equalsIgnoreCase("2XX")).findFirst());
        if (success.isEmpty()) {
            return null;
        }
        JsonNode response = refs.follow(responses.get(success.get()));
        JsonNode content = response.path("content");
        if (!content.isObject() || content.isEmpty()) {
            return null;
        }
        JsonNode schema = pickMedia(content).getValue().get("schema");
        if (schema == null) {
            return null;
        }
        JsonNode translated = schemas.translate(schema, warnings);
        return translated.isBoolean() ? NODES.objectNode() : translated;
    }

    private JsonNode dereferencedOperation(String method, String path, JsonNode operation, List<JsonNode> parameters) {
        ObjectNode copy = operation.deepCopy();
        ArrayNode merged = NODES.arrayNode();
        parameters.forEach(merged::add);
        copy.set("parameters", merged);
        JsonNode body = copy.get("requestBody");
        if (body != null) {
            copy.set("requestBody", refs.follow(body));
        }
        ObjectNode inlined = (ObjectNode) refs.inlined(copy, maxOperationNodes);
        inlined.put("x-toolsmith-method", method.toUpperCase(Locale.ROOT));
        inlined.put("x-toolsmith-path", path);
        return inlined;
    }

    private static String claim(String wanted, String location, Set<String> taken) {
        if (taken.add(wanted)) {
            return wanted;
        }
        String prefixed = location + "_" + wanted;
        String chosen = prefixed;
        for (int n = 2; !taken.add(chosen); n++) {
            chosen = prefixed + "_" + n;
        }
        return chosen;
    }

    static Risk risk(String method) {
        return switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD", "OPTIONS" -> Risk.READ_ONLY;
            case "DELETE" -> Risk.DESTRUCTIVE;
            default -> Risk.WRITE_REMOTE;
        };
    }
}
