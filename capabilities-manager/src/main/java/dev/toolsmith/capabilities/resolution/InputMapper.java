package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Maps a step's inputs onto a candidate tool's input schema, most certain evidence first: the exact
 * name, then a name the schema lists as an alias ({@code x-aliases}) or a common synonym, then a
 * case/underscore/camel variant ({@code from_currency} = {@code fromCurrency}); every match must be
 * type-compatible with the parameter. Finally a single leftover required parameter takes the single
 * leftover input of a compatible type. A required parameter nothing feeds makes the mapping incomplete.
 */
@ApplicationScoped
public class InputMapper {

    /** Names planners and APIs use for the same thing, compared in {@link #squash} form. */
    private static final List<Set<String>> SYNONYMS = List.of(
            Set.of("amount", "value", "quantity", "qty", "number", "sum"),
            Set.of("from", "source", "fromunit", "sourceunit", "fromcurrency", "sourcecurrency", "base", "basecurrency"),
            Set.of("to", "target", "tounit", "targetunit", "tocurrency", "targetcurrency", "destination"),
            Set.of("text", "input", "content", "body", "message", "string"),
            Set.of("date", "datetime", "timestamp", "when", "start", "startdate"),
            Set.of("template", "format", "pattern"),
            Set.of("document", "json", "data", "payload", "object", "doc"),
            Set.of("expression", "formula", "expr", "equation", "calculation"),
            Set.of("path", "jsonpath", "query", "selector"),
            Set.of("values", "variables", "params", "parameters", "context", "vars"),
            Set.of("amount", "duration", "offset", "delta", "period"));

    public InputMapping map(ObjectNode stepInputs, JsonNode inputSchema) {
        JsonNode properties = inputSchema == null ? null : inputSchema.get("properties");
        if (properties == null || !properties.isObject()) {
            return new InputMapping(Map.of(), List.of());
        }
        Set<String> required = new LinkedHashSet<>();
        inputSchema.path("required").forEach(name -> required.add(name.asText()));
        List<String> parameters = new ArrayList<>(required);
        properties.fieldNames().forEachRemaining(name -> {
            if (!required.contains(name)) {
                parameters.add(name);
            }
        });

        Map<String, String> assignments = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        for (Match level : Match.values()) {
            for (String parameter : parameters) {
                if (assignments.containsKey(parameter)) {
                    continue;
                }
                JsonNode property = properties.get(parameter);
                stepInputs.fieldNames().forEachRemaining(input -> {
                    if (!assignments.containsKey(parameter) && !used.contains(input)
                            && level.matches(input, parameter, property)
                            && compatible(stepInputs.get(input), property)) {
                        assignments.put(parameter, input);
                        used.add(input);
                    }
                });
            }
        }

        List<String> unmapped = new ArrayList<>();
        for (String parameter : required) {
            if (!assignments.containsKey(parameter)) {
                unmapped.add(parameter);
            }
        }
        if (unmapped.size() == 1) {
            String parameter = unmapped.get(0);
            List<String> leftovers = new ArrayList<>();
            stepInputs.fieldNames().forEachRemaining(input -> {
                if (!used.contains(input) && compatible(stepInputs.get(input), properties.get(parameter))) {
                    leftovers.add(input);
                }
            });
            if (leftovers.size() == 1) {
                assignments.put(parameter, leftovers.get(0));
                unmapped.clear();
                return new InputMapping(assignments, unmapped, Set.of(parameter));
            }
        }
        return new InputMapping(assignments, unmapped, Set.of());
    }

    private enum Match {
        EXACT {
            @Override
            boolean matches(String input, String parameter, JsonNode property) {
                return input.equals(parameter);
            }
        },
        ALIAS {
            @Override
            boolean matches(String input, String parameter, JsonNode property) {
                String in = squash(input);
                for (String key : List.of("x-aliases", "aliases")) {
                    for (JsonNode alias : property.path(key)) {
                        if (squash(alias.asText()).equals(in)) {
                            return true;
                        }
                    }
                }
                String param = squash(parameter);
                return SYNONYMS.stream().anyMatch(group -> group.contains(in) && group.contains(param));
            }
        },
        VARIANT {
            @Override
            boolean matches(String input, String parameter, JsonNode property) {
                return squash(input).equals(squash(parameter));
            }
        };

        abstract boolean matches(String input, String parameter, JsonNode property);
    }

    /** {@code From_Currency}, {@code fromCurrency} and {@code from-currency} all become {@code fromcurrency}. */
    static String squash(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    /** Whether a value fits the parameter's declared JSON type(s); an untyped parameter takes anything. */
    static boolean compatible(JsonNode value, JsonNode property) {
        JsonNode type = property == null ? null : property.get("type");
        if (type == null || value == null) {
            return true;
        }
        if (type.isArray()) {
            for (JsonNode one : type) {
                if (fits(value, one.asText())) {
                    return true;
                }
            }
            return false;
        }
        return fits(value, type.asText());
    }

    private static boolean fits(JsonNode value, String type) {
        return switch (type) {
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            case "integer" -> value.isIntegralNumber() || (value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0);
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            case "null" -> value.isNull();
            default -> true;
        };
    }
}
