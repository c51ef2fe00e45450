package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.SchemaChecker;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a plugin's verification suite from its manifest and the dereferenced OpenAPI operation it came
 * from: a case from the spec's examples and defaults (when it has any), one with only the required
 * inputs, one with every input, one invalid input that must be refused before sending, and the health
 * probe's request. Each request case carries the request the binding must produce and the response the
 * stub answers (the spec's response example when it satisfies the output schema, else one generated from
 * the schema). Deterministic: the same plugin and operation give the same suite.
 */
public final class SuiteGenerator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final SchemaChecker checker = new SchemaChecker(true);
    private final SchemaValueGenerator minimal = new SchemaValueGenerator(false, true);
    private final SchemaValueGenerator complete = new SchemaValueGenerator(true, true);
    private final SchemaValueGenerator invented = new SchemaValueGenerator(false, false);

    public VerificationSuite generate(ToolManifest plugin, JsonNode operation, String verificationSecret) {
        List<String> notes = new ArrayList<>();
        JsonNode op = operation == null ? NODES.objectNode() : operation;
        HttpBinding binding = plugin.binding();
        StubResponse response = response(plugin, op, notes);
        JsonNode properties = plugin.inputSchema() == null ? NODES.objectNode() : plugin.inputSchema().path("properties");

        List<VerificationCase> cases = new ArrayList<>();
        Map<String, JsonNode> examples = examples(plugin, op, notes);
        List<Map<String, JsonNode>> seen = new ArrayList<>();
        if (!examples.isEmpty()) {
            Map<String, JsonNode> inputs = withRequired(plugin, new LinkedHashMap<>(examples));
            addRequestCase(cases, seen, "spec examples and defaults", CaseKind.EXAMPLE, inputs, binding, response,
                    verificationSecret, "inputs from the spec: " + String.join(", ", examples.keySet()));
        }
        Map<String, JsonNode> required = withRequired(plugin, new LinkedHashMap<>());
        addRequestCase(cases, seen, "required inputs only", CaseKind.REQUIRED_INPUTS, required, binding, response,
                verificationSecret, null);
        Map<String, JsonNode> all = allInputs(plugin, properties, notes);
        addRequestCase(cases, seen, "every input", CaseKind.ALL_INPUTS, all, binding, response, verificationSecret, null);
        cases.add(invalidCase(plugin, required, notes));
        HealthProbe probe = plugin.healthProbe();
        if (probe != null && probe.available()) {
            cases.add(new VerificationCase("health probe", CaseKind.HEALTH_PROBE, probe.inputs(),
                    ExpectedRequestBuilder.expected(probe.binding(), probe.inputs(), verificationSecret),
                    new StubResponse(200, NODES.objectNode(), "any 200 answer"), null,
                    "the probe's request is built and sent: " + probe.binding().method() + " " + probe.binding().pathTemplate()));
        } else if (probe != null) {
            notes.add("no health probe: " + probe.unavailableReason());
        }
        return new VerificationSuite(plugin.id(), plugin.version(), cases, notes, verificationSecret);
    }

    private void addRequestCase(List<VerificationCase> cases, List<Map<String, JsonNode>> seen, String name, CaseKind kind,
            Map<String, JsonNode> inputs, HttpBinding binding, StubResponse response, String secret, String note) {
        if (seen.contains(inputs)) {
            return; // the same inputs twice prove nothing new
        }
        seen.add(inputs);
        cases.add(new VerificationCase(name, kind, inputs, ExpectedRequestBuilder.expected(binding, inputs, secret),
                response, null, note));
    }

    /** Required inputs that are not filled yet get their default, example, or a generated value. */
    private Map<String, JsonNode> withRequired(ToolManifest plugin, Map<String, JsonNode> inputs) {
        JsonNode schema = plugin.inputSchema();
        if (schema == null) {
            return inputs;
        }
        JsonNode properties = schema.path("properties");
        for (JsonNode name : schema.path("required")) {
            inputs.computeIfAbsent(name.asText(), n -> valid(properties.get(n), minimal));
        }
        return inputs;
    }

    /** A value from {@code generator}; when the spec's default or example it picked breaks the schema, an invented one. */
    private JsonNode valid(JsonNode schema, SchemaValueGenerator generator) {
        JsonNode value = generator.generate(schema);
        if (schema != null && checker.firstProblem(schema, value).isPresent()) {
            JsonNode invented = this.invented.generate(schema);
            if (checker.firstProblem(schema, invented).isEmpty()) {
                return invented;
            }
        }
        return value;
    }

    private Map<String, JsonNode> allInputs(ToolManifest plugin, JsonNode properties, List<String> notes) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> property = it.next();
            if (property.getValue().path("deprecated").asBoolean(false)) {
                continue;
            }
            JsonNode value = valid(property.getValue(), complete);
            if (value.isNull()) {
                continue;
            }
            Optional<String> problem = checker.firstProblem(property.getValue(), value);
            if (problem.isPresent() && !isRequired(plugin, property.getKey())) {
                notes.add("optional input '" + property.getKey() + "' was left out of the 'every input' case: no value"
                        + " satisfying its schema could be made (" + problem.get() + "); check that schema in the spec");
                continue;
            }
            inputs.put(property.getKey(), value);
        }
        return withRequired(plugin, inputs);
    }

    private static boolean isRequired(ToolManifest plugin, String name) {
        for (JsonNode required : plugin.inputSchema().path("required")) {
            if (name.equals(required.asText())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inputs the spec gives values for: schema defaults and examples (openapi-import keeps a parameter's
     * example in its schema's {@code examples}), and the request body's example mapped onto body inputs.
     * An example that breaks its own schema is left out, with a note.
     */
    private Map<String, JsonNode> examples(ToolManifest plugin, JsonNode op, List<String> notes) {
        Map<String, JsonNode> found = new LinkedHashMap<>();
        JsonNode properties = plugin.inputSchema() == null ? NODES.objectNode() : plugin.inputSchema().path("properties");
        properties.fields().forEachRemaining(property -> {
            JsonNode schema = property.getValue();
            JsonNode value = schema.has("default") ? schema.get("default")
                    : schema.path("examples").isArray() && !schema.path("examples").isEmpty() ? schema.get("examples").get(0)
                    : null;
            if (value != null && !value.isNull()) {
                found.put(property.getKey(), value);
            }
        });
        bodyExample(op).ifPresent(body -> {
            for (ParameterBinding p : plugin.binding().parameters()) {
                String wire = p.wireName() == null ? p.name() : p.wireName();
                if (p.location() == ParameterLocation.BODY_WHOLE) {
                    found.put(p.name(), body);
                } else if (p.location() == ParameterLocation.BODY && body.has(wire)) {
                    found.put(p.name(), body.get(wire));
                }
            }
        });
        found.entrySet().removeIf(entry -> {
            Optional<String> problem = checker.firstProblem(properties.get(entry.getKey()), entry.getValue());
            problem.ifPresent(p -> notes.add("the spec's example for input '" + entry.getKey()
                    + "' breaks its own schema (" + p + "); it was not used"));
            return problem.isPresent();
        });
        return found;
    }

    private static Optional<JsonNode> bodyExample(JsonNode op) {
        JsonNode content = op.path("requestBody").path("content");
        for (Iterator<Map.Entry<String, JsonNode>> it = content.fields(); it.hasNext();) {
            Optional<JsonNode> example = mediaExample(it.next().getValue());
            if (example.isPresent()) {
                return example;
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> mediaExample(JsonNode media) {
        if (media.has("example") && !media.get("example").isNull()) {
            return Optional.of(media.get("example"));
        }
        for (JsonNode example : media.path("examples")) {
            if (example.has("value") && !example.get("value").isNull()) {
                return Optional.of(example.get("value"));
            }
        }
        JsonNode schemaExample = media.path("schema").path("example");
        return schemaExample.isMissingNode() || schemaExample.isNull() ? Optional.empty() : Optional.of(schemaExample);
    }

    private VerificationCase invalidCase(ToolManifest plugin, Map<String, JsonNode> valid, List<String> notes) {
        JsonNode schema = plugin.inputSchema();
        JsonNode properties = schema == null ? NODES.objectNode() : schema.path("properties");
        List<Map.Entry<String, Map<String, JsonNode>>> attempts = new ArrayList<>();
        if (schema != null) {
            for (JsonNode name : schema.path("required")) {
                Map<String, JsonNode> inputs = new LinkedHashMap<>(valid);
                inputs.remove(name.asText());
                attempts.add(Map.entry("/" + name.asText(), inputs));
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> property = it.next();
            JsonNode wrong = wrongType(property.getValue());
            if (wrong != null) {
                Map<String, JsonNode> inputs = new LinkedHashMap<>(valid);
                inputs.put(property.getKey(), wrong);
                attempts.add(Map.entry("/" + property.getKey(), inputs));
            }
        }
        if (schema != null && schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").asBoolean()) {
            Map<String, JsonNode> inputs = new LinkedHashMap<>(valid);
            inputs.put("undeclared_input", TextNode.valueOf("x"));
            attempts.add(Map.entry("/", inputs));
        }
        ObjectNode document = NODES.objectNode();
        for (Map.Entry<String, Map<String, JsonNode>> attempt : attempts) {
            document.removeAll();
            attempt.getValue().forEach(document::set);
            if (checker.firstProblem(schema, document).isPresent()) {
                return new VerificationCase("invalid input refused before sending", CaseKind.INVALID_INPUT,
                        attempt.getValue(), null, null, attempt.getKey(),
                        "input " + attempt.getKey() + " breaks the input schema; nothing may reach the server");
            }
        }
        notes.add("the input schema accepts any input, so no invalid-input case can be made");
        return new VerificationCase("invalid input refused before sending", CaseKind.INVALID_INPUT, Map.of(), null, null,
                null, "skipped: the input schema accepts any input");
    }

    private static JsonNode wrongType(JsonNode schema) {
        String type = schema.path("type").isTextual() ? schema.get("type").asText() : null;
        if (type == null) {
            return null;
        }
        return switch (type) {
            case "string" -> NODES.objectNode().put("not", "a string");
            case "number", "integer" -> TextNode.valueOf("not-a-number");
            case "boolean" -> TextNode.valueOf("not-a-boolean");
            case "object" -> TextNode.valueOf("not-an-object");
            case "array" -> NODES.objectNode().put("not", "an array");
            default -> null;
        };
    }

    private StubResponse response(ToolManifest plugin, JsonNode op, List<String> notes) {
        JsonNode responses = op.path("responses");
        List<String> codes = new ArrayList<>();
        responses.fieldNames().forEachRemaining(codes::add);
        String code = codes.stream().filter(c -> c.matches("2\\d\\d")).sorted().findFirst()
                .orElse(codes.stream().filter(c -> c.equalsIgnoreCase("2XX")).findFirst().orElse("200"));
        int status = code.matches("\\d{3}") ? Integer.parseInt(code) : 200;
        JsonNode schema = plugin.outputSchema();
        if ("HEAD".equalsIgnoreCase(plugin.binding().method())) {
            return new StubResponse(status, null, "no body: HEAD responses have none");
        }
        if (schema == null || schema.isNull()) {
            return new StubResponse(status == 204 ? 204 : status, null, "no body: the operation declares no response schema");
        }
        JsonNode content = responses.path(code).path("content");
        Optional<JsonNode> example = Optional.empty();
        for (Iterator<Map.Entry<String, JsonNode>> it = content.fields(); it.hasNext() && example.isEmpty();) {
            Map.Entry<String, JsonNode> media = it.next();
            if (media.getKey().contains("json") || media.getKey().equals("*/*")) {
                example = mediaExample(media.getValue());
            }
        }
        if (example.isPresent()) {
            Optional<String> problem = checker.firstProblem(schema, example.get());
            if (problem.isEmpty()) {
                return new StubResponse(status, example.get(), "the spec's response example");
            }
            notes.add("the spec's response example breaks its own output schema (" + problem.get()
                    + "); a generated response is used instead");
        }
        JsonNode generated = complete.generate(schema);
        if (checker.firstProblem(schema, generated).isPresent()) {
            JsonNode plain = invented.generate(schema);
            if (checker.firstProblem(schema, plain).isEmpty()) {
                generated = plain;
            }
        }
        return new StubResponse(status, generated, "generated from the output schema");
    }
}
