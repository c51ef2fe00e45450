package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;

/**
 * Renders a Mustache template ({@link SafeMustache}) over a values object: {@code {{name}}} and
 * {@code {{a.b.c}}} placeholders, and sections over values ({@code {{#items}}…{{/items}}},
 * {@code {{^items}}…{{/items}}}). Templates come from untrusted plans, so they can only read values:
 * no partials, no method calls, no HTML escaping (the output is plain text).
 */
@ApplicationScoped
public class RenderTextPlugin implements InternalPlugin {

    /** Output cap: nested sections over lists multiply, and one step must not fill the heap. */
    static final int MAX_OUTPUT = 1_000_000;

    private static final ToolManifest MANIFEST = Manifests.internal("render-text", "RENDER_TEXT", "Render text template",
            "Fill a text template's {{name}} or {{customer.address.city}} placeholders with values, e.g. to write an "
                    + "email, message, summary or report from the outputs of earlier steps. A placeholder without a "
                    + "value is an error unless allowMissing is true.",
            "text", List.of("template", "text", "format", "message", "mustache", "render"),
            """
            {"type": "object", "required": ["template", "values"],
             "properties": {
               "template": {"type": "string", "maxLength": 100000, "description": "text with {{name}} placeholders"},
               "values": {"type": "object", "description": "placeholder name -> value; nested objects via a.b"},
               "allowMissing": {"type": "boolean", "description": "render missing values as empty text"}
             }}""",
            """
            {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        String template = inputs.get("template").asText();
        JsonNode values = inputs.get("values");
        boolean allowMissing = inputs.path("allowMissing").asBoolean(false);
        SafeMustache mustache = new SafeMustache(MAX_OUTPUT);
        StringWriter text = new StringWriter(template.length() + 64);
        mustache.render(new StringReader(template), SafeMustache.scope(values), text);
        if (!allowMissing && !mustache.missing().isEmpty()) {
            String name = mustache.missing().get(0);
            throw new PluginFailure("the template uses {{" + name + "}} but values has no '" + name + "'");
        }
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("text", text.toString());
        return out;
    }

    @Override
    public List<Example> examples() {
        return List.of(new Example("greeting",
                Manifests.object("{\"template\": \"Dear {{ name }}, your order {{order.id}} ships on {{order.date}}.\","
                        + " \"values\": {\"name\": \"Ada\", \"order\": {\"id\": 42, \"date\": \"2025-03-01\"}}}"),
                Manifests.object("{\"text\": \"Dear Ada, your order 42 ships on 2025-03-01.\"}")));
    }
}
