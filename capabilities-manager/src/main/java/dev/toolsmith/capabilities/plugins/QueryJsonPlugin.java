package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Selects from a JSON document with JSONPath ({@code path}) or reshapes it into a new object whose
 * fields are JSONPath selections ({@code fields}). Works on Jackson trees directly: no copies.
 */
@ApplicationScoped
public class QueryJsonPlugin implements InternalPlugin {

    private static final Configuration JSONPATH = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider(Manifests.JSON))
            .mappingProvider(new JacksonMappingProvider(Manifests.JSON))
            .build();
    private static final Configuration LENIENT = JSONPATH.addOptions(Option.DEFAULT_PATH_LEAF_TO_NULL);

    private static final ToolManifest MANIFEST = Manifests.internal("query-json", "QUERY_JSON", "Query JSON",
            "Select values from a JSON document with a JSONPath expression (e.g. $.items[*].price, "
                    + "$.users[?(@.age > 30)].name), or reshape it into a new object whose fields are JSONPath "
                    + "selections. Use it to extract or transform data returned by an earlier step.",
            "data", List.of("json", "jsonpath", "select", "extract", "transform", "filter"),
            """
            {"type": "object", "required": ["document"],
             "anyOf": [{"required": ["path"]}, {"required": ["fields"]}],
             "properties": {
               "document": {"description": "the JSON document to query (any JSON value)"},
               "path": {"type": "string", "minLength": 1, "description": "JSONPath, e.g. $.items[0].name"},
               "fields": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"},
                          "description": "output field name -> JSONPath; a path that matches nothing gives null"}
             }}""",
            """
            {"type": "object", "required": ["result"],
             "properties": {"result": {"description": "the selection, or the reshaped object"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        JsonNode document = inputs.get("document");
        ObjectNode out = Manifests.JSON.createObjectNode();
        if (inputs.hasNonNull("fields")) {
            ObjectNode shaped = out.putObject("result");
            Iterator<Map.Entry<String, JsonNode>> fields = inputs.get("fields").fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                shaped.set(field.getKey(), select(document, field.getValue().asText(), true));
            }
        } else {
            out.set("result", select(document, inputs.get("path").asText(), false));
        }
        return out;
    }

    private static JsonNode select(JsonNode document, String path, boolean lenient) {
        try {
            JsonNode selected = JsonPath.using(lenient ? LENIENT : JSONPATH).parse(document).read(path);
            return selected == null ? NullNode.getInstance() : selected;
        } catch (PathNotFoundException e) {
            if (lenient) {
                return NullNode.getInstance();
            }
            throw new PluginFailure("path '" + path + "' matched nothing in the document: " + e.getMessage());
        } catch (InvalidPathException e) {
            throw new PluginFailure("'" + path + "' is not a valid JSONPath: " + e.getMessage());
        }
    }

    @Override
    public List<Example> examples() {
        return List.of(
                new Example("select prices",
                        Manifests.object("{\"document\": {\"items\": [{\"price\": 3}, {\"price\": 4.5}]},"
                                + " \"path\": \"$.items[*].price\"}"),
                        Manifests.object("{\"result\": [3, 4.5]}")),
                new Example("reshape",
                        Manifests.object("{\"document\": {\"user\": {\"first\": \"Ada\", \"langs\": [\"en\"]}},"
                                + " \"fields\": {\"name\": \"$.user.first\", \"lang\": \"$.user.langs[0]\","
                                + " \"age\": \"$.user.age\"}}"),
                        Manifests.object("{\"result\": {\"name\": \"Ada\", \"lang\": \"en\", \"age\": null}}")));
    }
}
