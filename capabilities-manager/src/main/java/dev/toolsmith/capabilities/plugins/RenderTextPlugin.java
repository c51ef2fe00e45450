package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills {@code {{name}}} and {@code {{a.b.c}}} placeholders of a text template from a values object.
 * Deliberately logic-free: a planner's template can read values but never call code, so templates from
 * untrusted plans are safe to render.
 */
@ApplicationScoped
public class RenderTextPlugin implements InternalPlugin {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_$-]+(?:\\.[A-Za-z0-9_$-]+)*)\\s*}}");

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
        Matcher matcher = PLACEHOLDER.matcher(template);
        StringBuilder text = new StringBuilder(template.length() + 64);
        while (matcher.find()) {
            String name = matcher.group(1);
            JsonNode value = lookup(values, name);
            if (value == null && !allowMissing) {
                throw new PluginFailure("the template uses {{" + name + "}} but values has no '" + name + "'");
            }
            matcher.appendReplacement(text, Matcher.quoteReplacement(asText(value)));
        }
        matcher.appendTail(text);
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("text", text.toString());
        return out;
    }

    private static JsonNode lookup(JsonNode values, String dottedName) {
        JsonNode current = values;
        for (String part : dottedName.split("\\.")) {
            if (current == null || !current.isObject() || !current.has(part)) {
                return null;
            }
            current = current.get(part);
        }
        return current == null || current.isNull() ? null : current;
    }

    private static String asText(JsonNode value) {
        if (value == null) {
            return "";
        }
        return value.isValueNode() ? value.asText() : value.toString();
    }

    @Override
    public List<Example> examples() {
        return List.of(new Example("greeting",
                Manifests.object("{\"template\": \"Dear {{ name }}, your order {{order.id}} ships on {{order.date}}.\","
                        + " \"values\": {\"name\": \"Ada\", \"order\": {\"id\": 42, \"date\": \"2025-03-01\"}}}"),
                Manifests.object("{\"text\": \"Dear Ada, your order 42 ships on 2025-03-01.\"}")));
    }
}
