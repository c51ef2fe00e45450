package dev.toolsmith.e2e;

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
 * A raw MCP session over Streamable HTTP (JSON-RPC 2.0 POSTs, JSON or SSE answers, the session's GET stream),
 * written from the specification: what any MCP client sends to the capabilities manager's {@code /mcp}.
 */
final class McpSession implements AutoCloseable {

    static final String PROTOCOL = "2025-06-18";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI endpoint;
    private final String bearer;
    private final AtomicLong ids = new AtomicLong();
    private final List<JsonNode> pushed = new CopyOnWriteArrayList<>();
    private String session;
    private InputStream stream;

    McpSession(String capabilitiesUrl, String bearer) {
        this.endpoint = URI.create(capabilitiesUrl + "/mcp");
        this.bearer = bearer;
    }

    /** The HTTP answer to initialize (the session id is kept when it succeeds), then notifications/initialized. */
    HttpResponse<String> initialize() throws Exception {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "toolsmith-e2e").put("version", "1");
        HttpResponse<String> answer = post(request("initialize", params));
        if (answer.statusCode() == 200) {
            session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new AssertionError("no session id"));
            int initialized = post(JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
                    .statusCode();
            if (initialized != 202) {
                throw new AssertionError("notifications/initialized answered " + initialized);
            }
        }
        return answer;
    }

    /** The whole JSON-RPC answer (result or error) to {@code method}; a non-200 HTTP answer throws. */
    JsonNode exchange(String method, JsonNode params) throws Exception {
        HttpResponse<String> answer = post(request(method, params));
        if (answer.statusCode() != 200) {
            throw new AssertionError(method + " answered HTTP " + answer.statusCode() + ": " + answer.body());
        }
        return body(answer);
    }

    /** tools/call: the CallToolResult, which must not be a JSON-RPC error. */
    JsonNode callTool(String tool, Object arguments) throws Exception {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        JsonNode answer = exchange("tools/call", params);
        if (answer.has("error")) {
            throw new AssertionError("tools/call " + tool + " answered a JSON-RPC error: " + answer.get("error"));
        }
        return answer.path("result");
    }

    /** The JSON a tool result carries as its text content. */
    static JsonNode content(JsonNode toolResult) throws Exception {
        return JSON.readTree(toolResult.path("content").path(0).path("text").asText());
    }

    /** Opens the session's GET stream and collects what the server pushes on it. */
    void listen() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint).header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + bearer).header("Mcp-Session-Id", session)
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
                // the stream ends with the session
            }
        }, "mcp-e2e-stream");
        reader.setDaemon(true);
        reader.start();
    }

    List<JsonNode> pushed() {
        return List.copyOf(pushed);
    }

    HttpResponse<String> post(JsonNode message) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", PROTOCOL).header("Authorization", "Bearer " + bearer)
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private ObjectNode request(String method, JsonNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
                .put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    private static JsonNode body(HttpResponse<String> answer) throws Exception {
        if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
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
