package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Derives the request a binding must produce for given inputs, in the decoded form a server sees
 * (OpenAPI 3 serialisation rules). Written from the specification's tables, separately from the
 * executor's encoder, so the two check each other.
 */
final class ExpectedRequestBuilder {

    private ExpectedRequestBuilder() {
    }

    static ExpectedRequest expected(HttpBinding binding, Map<String, JsonNode> inputs, String secret) {
        Map<String, String> pathValues = new LinkedHashMap<>();
        Map<String, List<String>> query = new LinkedHashMap<>();
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, String> cookies = new LinkedHashMap<>();
        ObjectNode bodyProperties = null;
        JsonNode whole = null;
        for (ParameterBinding p : binding.parameters()) {
            JsonNode value = inputs.get(p.name());
            if (value == null || value.isNull()) {
                continue;
            }
            String wire = p.wireName() == null ? p.name() : p.wireName();
            String style = p.style() == null ? "" : p.style();
            switch (p.location()) {
                case PATH -> pathValues.put(wire, pathValue(wire, value, style, Boolean.TRUE.equals(p.explode())));
                case QUERY -> query(wire, value, style.isEmpty() ? "form" : style,
                        p.explode() == null ? style.isEmpty() || style.equals("form") : p.explode(), query);
                case HEADER -> headers.put(wire, simple(value, Boolean.TRUE.equals(p.explode())));
                case COOKIE -> {
                    if (!(value.isArray() && Boolean.TRUE.equals(p.explode()))) {
                        cookies.put(wire, simple(value, false));
                    }
                }
                case BODY -> {
                    if (bodyProperties == null) {
                        bodyProperties = JsonNodeFactory.instance.objectNode();
                    }
                    bodyProperties.set(wire, value);
                }
                case BODY_WHOLE -> whole = value;
            }
        }
        fixedQuery(binding.pathTemplate(), pathValues, query);
        AuthBinding auth = binding.auth();
        switch (auth.scheme()) {
            case API_KEY_HEADER -> headers.put(auth.parameterName(), secret);
            case API_KEY_QUERY -> query.computeIfAbsent(auth.parameterName(), k -> new ArrayList<>()).add(secret);
            case API_KEY_COOKIE -> cookies.put(auth.parameterName(), secret);
            case BEARER -> headers.put("Authorization", "Bearer " + secret);
            case BASIC -> headers.put("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)));
            default -> {
            }
        }
        JsonNode jsonBody = null;
        Map<String, List<String>> formBody = null;
        if (bodyProperties != null || whole != null) {
            if (binding.bodyEncoding() == BodyEncoding.FORM) {
                formBody = new LinkedHashMap<>();
                JsonNode fields = whole != null && whole.isObject() ? whole : JsonNodeFactory.instance.objectNode();
                if (bodyProperties != null) {
                    fields = ((ObjectNode) fields.deepCopy()).setAll(bodyProperties);
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = fields.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> field = it.next();
                    List<String> values = formBody.computeIfAbsent(field.getKey(), k -> new ArrayList<>());
                    if (field.getValue().isArray()) {
                        field.getValue().forEach(element -> values.add(text(element)));
                    } else {
                        values.add(text(field.getValue()));
                    }
                }
            } else if (whole != null && bodyProperties != null && whole.isObject()) {
                jsonBody = ((ObjectNode) whole.deepCopy()).setAll(bodyProperties);
            } else {
                jsonBody = whole != null ? whole : bodyProperties;
            }
        }
        return new ExpectedRequest(binding.method().toUpperCase(Locale.ROOT), pathSegments(binding.pathTemplate(), pathValues),
                query, headers, cookies, jsonBody, formBody);
    }

    /** The template without its fragment (never sent) and without its fixed query. */
    static String pathOnly(String template) {
        String path = template == null ? "" : template;
        int cut = path.indexOf('#');
        if (cut >= 0) {
            path = path.substring(0, cut);
        }
        cut = path.indexOf('?');
        return cut >= 0 ? path.substring(0, cut) : path;
    }

    /** A fixed query in the template ("/?Action=List#frag") that every request carries. */
    private static void fixedQuery(String template, Map<String, String> pathValues, Map<String, List<String>> query) {
        String path = template == null ? "" : template;
        int cut = path.indexOf('#');
        if (cut >= 0) {
            path = path.substring(0, cut);
        }
        int q = path.indexOf('?');
        if (q < 0 || q == path.length() - 1) {
            return;
        }
        for (String pair : path.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = ReceivedRequestCheck.percentDecode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : ReceivedRequestCheck.percentDecode(pair.substring(eq + 1));
            for (Map.Entry<String, String> filled : pathValues.entrySet()) {
                value = value.replace("{" + filled.getKey() + "}", filled.getValue());
            }
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
    }

    private static List<String> pathSegments(String template, Map<String, String> values) {
        List<String> segments = new ArrayList<>();
        String path = pathOnly(template);
        String[] parts = path.split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            String segment = parts[i];
            if (i == 0 && segment.isEmpty()) {
                continue; // before the leading slash
            }
            String filled = segment;
            for (Map.Entry<String, String> value : values.entrySet()) {
                filled = filled.replace("{" + value.getKey() + "}", value.getValue());
            }
            segments.add(filled);
        }
        return segments;
    }

    private static String pathValue(String name, JsonNode value, String style, boolean explode) {
        return switch (style) {
            case "label" -> "." + (value.isArray() ? join(value, explode ? "." : ",")
                    : value.isObject() ? pairs(value, explode ? "=" : ",", explode ? "." : ",") : text(value));
            case "matrix" -> {
                if (value.isArray() && explode) {
                    StringBuilder out = new StringBuilder();
                    value.forEach(v -> out.append(';').append(name).append('=').append(text(v)));
                    yield out.toString();
                }
                if (value.isObject() && explode) {
                    yield ";" + pairs(value, "=", ";");
                }
                yield ";" + name + "=" + simple(value, false);
            }
            default -> simple(value, explode);
        };
    }

    private static void query(String name, JsonNode value, String style, boolean explode, Map<String, List<String>> out) {
        if (value.isObject() && style.equals("deepObject")) {
            deep(name, value, out);
            return;
        }
        String delimiter = switch (style) {
            case "spaceDelimited" -> " ";
            case "pipeDelimited" -> "|";
            default -> ",";
        };
        if (value.isArray()) {
            if (explode) {
                value.forEach(v -> out.computeIfAbsent(name, k -> new ArrayList<>()).add(text(v)));
            } else {
                out.computeIfAbsent(name, k -> new ArrayList<>()).add(join(value, delimiter));
            }
        } else if (value.isObject()) {
            if (explode) {
                value.fields().forEachRemaining(e -> out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(text(e.getValue())));
            } else {
                out.computeIfAbsent(name, k -> new ArrayList<>()).add(pairs(value, delimiter, delimiter));
            }
        } else {
            out.computeIfAbsent(name, k -> new ArrayList<>()).add(text(value));
        }
    }

    private static void deep(String prefix, JsonNode object, Map<String, List<String>> out) {
        object.fields().forEachRemaining(e -> {
            String key = prefix + "[" + e.getKey() + "]";
            if (e.getValue().isObject()) {
                deep(key, e.getValue(), out);
            } else if (e.getValue().isArray()) {
                e.getValue().forEach(v -> out.computeIfAbsent(key, k -> new ArrayList<>()).add(text(v)));
            } else {
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(text(e.getValue()));
            }
        });
    }

    private static String simple(JsonNode value, boolean explode) {
        if (value.isArray()) {
            return join(value, ",");
        }
        if (value.isObject()) {
            return explode ? pairs(value, "=", ",") : pairs(value, ",", ",");
        }
        return text(value);
    }

    private static String join(JsonNode array, String delimiter) {
        List<String> parts = new ArrayList<>();
        array.forEach(v -> parts.add(text(v)));
        return String.join(delimiter, parts);
    }

    private static String pairs(JsonNode object, String kv, String between) {
        List<String> parts = new ArrayList<>();
        object.fields().forEachRemaining(e -> parts.add(e.getKey() + kv + text(e.getValue())));
        return String.join(between, parts);
    }

    /** The wire text of a value: strings as they are, numbers in plain notation, structures as JSON. */
    static String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isFloatingPointNumber() || value.isBigDecimal()) {
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }
}
