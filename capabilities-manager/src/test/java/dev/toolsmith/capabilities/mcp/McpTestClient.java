package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw MCP client over real HTTP (Streamable HTTP, JSON-RPC 2.0), written from the specification with
 * nothing of the server's code: it POSTs each message, reads a JSON or an SSE answer, and can hold the
 * session's GET stream open to collect what the server sends on its own (notifications).
 */
final class McpTestClient implements AutoCloseable {

    static final String PROTOCOL = "2025-06-18";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI endpoint;
    private final String apiKey;
    private final AtomicLong ids = new AtomicLong();
    private final List<JsonNode> pushed = new CopyOnWriteArrayList<>();
    private String session;
    private InputStream stream;

    McpTestClient(int port, String apiKey) {
        this.endpoint = URI.create("http://127.0.0.1:" + port + "/mcp");
        this.apiKey = apiKey;
    }

    /** initialize, then notifications/initialized; answers the initialize result. */
    JsonNode initialize() throws Exception {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "toolsmith-test").put("version", "1");
        HttpResponse<String> answer = post(request("initialize", params));
        if (answer.statusCode() != 200) {
            throw new AssertionError("initialize answered " + answer.statusCode() + ": " + answer.body());
        }
        session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new AssertionError("no session id"));
        HttpResponse<String> initialized = post(JSON.createObjectNode().put("jsonrpc", "2.0")
                .put("method", "notifications/initialized"));
        if (initialized.statusCode() != 202) {
            throw new AssertionError("notifications/initialized answered " + initialized.statusCode());
        }
        return body(answer).path("result");
    }

    String session() {
        return session;
    }

    /** The result of a JSON-RPC request (or throws with its error). */
    JsonNode call(String method, JsonNode params) throws Exception {
        HttpResponse<String> answer = post(request(method, params));
        if (answer.statusCode() != 200) {
            throw new AssertionError(method + " answered HTTP " + answer.statusCode() + ": " + answer.body());
        }
        JsonNode message = body(answer);
        if (message.has("error")) {
            throw new AssertionError(method + " answered a JSON-RPC error: " + message.get("error"));
        }
        return message.path("result");
    }

    /** The whole JSON-RPC answer of {@code method}, error or not. */
    JsonNode exchange(String method, JsonNode params) throws Exception {
        return body(post(request(method, params)));
    }

    /** tools/call of {@code tool}: the CallToolResult. */
    JsonNode callTool(String tool, Object arguments) throws Exception {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return call("tools/call", params);
    }

    /** The structured content of a tool result (what the text content carries as JSON, too). */
    static JsonNode structured(JsonNode toolResult) throws Exception {
        JsonNode text = JSON.readTree(toolResult.path("content").path(0).path("text").asText());
        if (!text.equals(toolResult.path("structuredContent"))) {
            throw new AssertionError("text and structured content differ: " + toolResult);
        }
        return text;
    }

    static String text(JsonNode toolResult) {
        return toolResult.path("content").path(0).path("text").asText();
    }

    HttpResponse<String> post(JsonNode message) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", PROTOCOL)
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        if (apiKey != null) {
            request.header("Authorization", "Bearer " + apiKey);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Opens the session's GET stream and collects every message on it in the background. */
    void listen() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint).header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + apiKey).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", PROTOCOL).GET().build();
        HttpResponse<InputStream> answer = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        if (answer.statusCode() != 200) {
            throw new AssertionError("GET stream answered " + answer.statusCode());
        }
        stream = answer.body();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.startsWith("data:")) {
                        pushed.add(JSON.readTree(line.substring(5).strip()));
                    }
                }
            } catch (Exception closed) {
                // the stream ends with the test
            }
        }, "mcp-test-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** The messages the server pushed on the GET stream so far. */
    List<JsonNode> pushed() {
        return List.copyOf(pushed);
    }

    private ObjectNode request(String method, JsonNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
                .put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    /** A JSON answer, or the last JSON-RPC message of an SSE answer. */
    private static JsonNode body(HttpResponse<String> answer) throws Exception {
        String type = answer.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return JSON.readTree(answer.body());
        }
        JsonNode last = null;
        for (String line : answer.body().split("\n")) {
            if (line.startsWith("data:")) {
                JsonNode message = JSON.readTree(line.substring(5).strip());
                if (message.has("id")) {
                    last = message;
                }
            }
        }
        if (last == null) {
            throw new AssertionError("no JSON-RPC answer in the event stream: " + answer.body());
        }
        return last;
    }

    @Override
    public void close() throws Exception {
        if (stream != null) {
            stream.close();
        }
    }
}
