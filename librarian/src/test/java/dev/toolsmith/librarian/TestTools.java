package dev.toolsmith.librarian;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.util.List;

/** Manifests and API keys the librarian's tests share. */
public final class TestTools {

    public static final String ADMIN_KEY = "admin-key";
    public static final String VIEWER_KEY = "viewer-key";
    public static final String PLANNER_KEY = "planner-key";
    public static final String PLANNER_B_KEY = "planner-b-key";
    public static final String SERVICE_KEY = "service-key";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private TestTools() {
    }

    /** A tool with one input parameter per name; every test gives its tools ids of its own. */
    public static ToolManifest tool(String id, String verb, String name, String description, String namespace,
            String domain, Risk risk, String... parameters) {
        ObjectNode schema = JSON.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (String p : parameters) {
            properties.putObject(p).put("type", "string").put("description", "the " + p.replace('_', ' '));
        }
        return new ToolManifest(id, verb, name, description, ToolSourceType.INTERNAL, namespace, domain,
                List.of(domain), schema, JSON.objectNode().put("type", "object"), risk, null, null, 0, null);
    }

    /** {@code manifest} as a tool that came through the airlock from an OpenAPI source, not an internal plugin. */
    public static ToolManifest external(ToolManifest manifest) {
        return new ToolManifest(manifest.id(), manifest.verb(), manifest.name(), manifest.description(),
                ToolSourceType.OPENAPI, manifest.namespace(), manifest.domain(), manifest.tags(), manifest.inputSchema(),
                manifest.outputSchema(), manifest.risk(), manifest.binding(), manifest.healthProbe(), 0, null);
    }

    public static ToolManifest weather(String id) {
        return tool(id, "GET_WEATHER_FORECAST", "Weather forecast",
                "Returns the weather forecast (temperature, rain probability, wind) for a city and a date.",
                "weather", "forecast", Risk.READ_ONLY, "city", "date");
    }

    public static ToolManifest currency(String id) {
        return tool(id, "CONVERT_CURRENCY", "Currency converter",
                "Converts an amount of money from one currency to another at today's exchange rate.",
                "finance", "fx", Risk.READ_ONLY, "amount", "from_currency", "to_currency");
    }

    public static ToolManifest email(String id) {
        return tool(id, "SEND_EMAIL", "Send email", "Sends an email message to a recipient with a subject and a body.",
                "messaging", "email", Risk.WRITE_REMOTE, "to", "subject", "body");
    }

    public static ToolManifest flight(String id) {
        return tool(id, "BOOK_FLIGHT", "Flight booking",
                "Books a plane ticket between two airports on a given day for a number of passengers.",
                "travel", "flights", Risk.WRITE_REMOTE, "origin", "destination", "date", "passengers");
    }

    public static ToolManifest table(String id) {
        return tool(id, "RESERVE_TABLE", "Restaurant reservation",
                "Reserves a table at a restaurant for a number of people at a given time.",
                "dining", "restaurants", Risk.WRITE_REMOTE, "restaurant", "time", "party_size");
    }
}
