package dev.toolsmith.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import java.util.List;

/** A tiny labelled catalog and one shared embedding ensemble for the tests (loading takes a second or two). */
final class TestCatalog {

    static final EnsembleTextEmbedder EMBEDDER = EnsembleTextEmbedder.defaultEnsemble();
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestCatalog() {
    }

    static List<ToolManifest> tools() {
        return List.of(
                tool("currency", "CONVERT_CURRENCY", "Currency converter",
                        "Converts an amount of money from one currency to another at today's exchange rate.",
                        "finance", "money", Risk.READ_ONLY,
                        "{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"number\"},"
                                + "\"fromCurrency\":{\"type\":\"string\",\"description\":\"ISO code, e.g. USD\"},"
                                + "\"toCurrency\":{\"type\":\"string\"}}}"),
                tool("weather", "GET_WEATHER_FORECAST", "Weather forecast",
                        "Returns the weather forecast (temperature, rain, wind) for a city for the next days.",
                        "travel", "weather", Risk.READ_ONLY,
                        "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\"}}}"),
                tool("table", "RESERVE_TABLE", "Restaurant reservation",
                        "Reserves a table at a restaurant for a party at a given date and time.",
                        "travel", "dining", Risk.WRITE_REMOTE,
                        "{\"type\":\"object\",\"properties\":{\"restaurant\":{\"type\":\"string\"},"
                                + "\"partySize\":{\"type\":\"integer\"},\"time\":{\"type\":\"string\"}}}"),
                tool("email", "SEND_EMAIL", "Send email",
                        "Sends an email message to one or more recipients with a subject and a body.",
                        "office", "messaging", Risk.WRITE_REMOTE,
                        "{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"array\"},\"subject\":{\"type\":\"string\"},"
                                + "\"body\":{\"type\":\"string\"}}}"),
                tool("translate", "TRANSLATE_TEXT", "Translator",
                        "Translates text from one human language into another language.",
                        "office", "language", Risk.READ_ONLY,
                        "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},"
                                + "\"targetLanguage\":{\"type\":\"string\"}}}"),
                tool("stock", "GET_STOCK_QUOTE", "Stock quotes",
                        "Looks up the latest share price and daily change of a listed company by ticker symbol.",
                        "finance", "markets", Risk.READ_ONLY,
                        "{\"type\":\"object\",\"properties\":{\"ticker\":{\"type\":\"string\"}}}"),
                tool("flight", "BOOK_FLIGHT", "Flight booking",
                        "Books airline tickets between two airports on a date for a number of passengers.",
                        "travel", "flights", Risk.WRITE_REMOTE,
                        "{\"type\":\"object\",\"properties\":{\"origin\":{\"type\":\"string\"},\"destination\":{\"type\":\"string\"},"
                                + "\"date\":{\"type\":\"string\"}}}"),
                tool("calendar", "CREATE_CALENDAR_EVENT", "Calendar",
                        "Creates an event or meeting in the user's calendar with a title, start and end time.",
                        "office", "calendar", Risk.WRITE_LOCAL,
                        "{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\"},\"start\":{\"type\":\"string\"}}}"),
                tool("delete", "DELETE_FILE", "File deletion",
                        "Permanently deletes a file from the user's storage.",
                        "office", "files", Risk.DESTRUCTIVE,
                        "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}"),
                tool("summarize", "SUMMARIZE_DOCUMENT", "Summarizer",
                        "Produces a short summary of a long document or article.",
                        "office", "language", Risk.READ_ONLY,
                        "{\"type\":\"object\",\"properties\":{\"document\":{\"type\":\"string\"}}}"));
    }

    static ToolIndex index() {
        ToolIndex index = new ToolIndex(EMBEDDER);
        List<ToolManifest> tools = tools();
        List<ToolVectors> vectors = index.vectorizeAll(tools);
        index.upsertAll(java.util.stream.IntStream.range(0, tools.size())
                .mapToObj(i -> new ToolIndex.IndexedTool(tools.get(i), vectors.get(i), null)).toList());
        return index;
    }

    static ToolManifest tool(String id, String verb, String name, String description, String namespace,
            String domain, Risk risk, String schema) {
        try {
            JsonNode s = JSON.readTree(schema);
            return new ToolManifest(id, verb, name, description, ToolSourceType.INTERNAL, namespace, domain,
                    List.of(domain), s, null, risk, null, null, 1, null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
