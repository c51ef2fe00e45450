package dev.toolsmith.testsupport.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
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
 * A raw MCP client over Streamable HTTP (JSON-RPC 2.0), written from the specification with nothing of the server's
 * code: it POSTs each message with the bearer key, reads a JSON or an SSE answer, and can hold the session's GET
 * stream open to collect what the server sends on its own (notifications). The capabilities manager's MCP tests, the
 * end-to-end tests and the demo's scripted exchange all speak to {@code /mcp} through it. A protocol failure (an
 * unexpected HTTP status, a JSON-RPC error where a result is due) is an {@link IllegalStateException} naming it.
 */
public final class McpClient implements AutoCloseable {

    public static final String PROTOCOL = "2025-06-18";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI endpoint;
    private final String bearer;
    private final AtomicLong ids = new AtomicLong();
    private final List<JsonNode> pushed = new CopyOnWriteArrayList<>();
    private String session;
    private InputStream stream;

    /** {@code endpoint}: the MCP URL (e.g. http://127.0.0.1:8082/mcp); {@code bearer}: the API key, or null for none. */
    public McpClient(String endpoint, String bearer) {
        this.endpoint = URI.create(endpoint);
        this.bearer = bearer;
    }

    /** The capabilities manager's {@code /mcp} on a local port. */
    public McpClient(int port, String bearer) {
        this("http://127.0.0.1:" + port + "/mcp", bearer);
    }

    /**
     * The HTTP answer to initialize, whatever its status (a wrong key answers 401); when it is 200 the session id is
     * kept and notifications/initialized sent.
     */
    public HttpResponse<String> initializeAnswer() throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", PROTOCOL);
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "toolsmith-raw-client").put("version", "1");
        HttpResponse<String> answer = post(request("initialize", params));
        if (answer.statusCode() == 200) {
            session = answer.headers().firstValue("Mcp-Session-Id")
                    .orElseThrow(() -> new IllegalStateException("initialize answered without an Mcp-Session-Id"));
            int initialized = post(JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"))
                    .statusCode();
            if (initialized != 202) {
                throw new IllegalStateException("notifications/initialized answered HTTP " + initialized);
            }
        }
        return answer;
    }

    /** initialize, then notifications/initialized; answers the initialize result (server info, capabilities). */
    public JsonNode initialize() throws IOException, InterruptedException {
        HttpResponse<String> answer = initializeAnswer();
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("initialize answered HTTP " + answer.statusCode() + ": " + answer.body());
        }
        return body(answer).path("result");
    }

    public String session() {
        return session;
    }

    /** The result of a JSON-RPC request; an HTTP status other than 200 or a JSON-RPC error throws. */
    public JsonNode call(String method, JsonNode params) throws IOException, InterruptedException {
        HttpResponse<String> answer = post(request(method, params));
        if (answer.statusCode() != 200) {
            throw new IllegalStateException(method + " answered HTTP " + answer.statusCode() + ": " + answer.body());
        }
        JsonNode message = body(answer);
        if (message.has("error")) {
            throw new IllegalStateException(method + " answered a JSON-RPC error: " + message.get("error"));
        }
        return message.path("result");
    }

    /** The whole JSON-RPC answer of {@code method}, error or not. */
    public JsonNode exchange(String method, JsonNode params) throws IOException, InterruptedException {
        return body(post(request(method, params)));
    }

    /** tools/call of {@code tool}: the CallToolResult (a tool error is a result with isError, not a throw). */
    public JsonNode callTool(String tool, Object arguments) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode().put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return call("tools/call", params);
    }

    /** The structured content of a tool result, which its text content must carry as the same JSON. */
    public static JsonNode structured(JsonNode toolResult) throws IOException {
        JsonNode text = JSON.readTree(text(toolResult));
        if (!text.equals(toolResult.path("structuredContent"))) {
            throw new IllegalStateException("text and structured content differ: " + toolResult);
        }
        return text;
    }

    /** The text of a tool result's first content. */
    public static String text(JsonNode toolResult) {
        return toolResult.path("content").path(0).path("text").asText();
    }

    /** POSTs one JSON-RPC message (request or notification) in this session; the raw HTTP answer. */
    public HttpResponse<String> post(JsonNode message) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", PROTOCOL)
                .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Opens the session's GET stream and collects every message on it in the background. */
    public void listen() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", PROTOCOL).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        HttpResponse<InputStream> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (answer.statusCode() != 200) {
            answer.body().close();
            throw new IllegalStateException("the GET stream answered HTTP " + answer.statusCode());
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
            } catch (IOException closed) {
                // the stream ends with the session or the client
            }
        }, "mcp-client-stream");
        reader.setDaemon(true);
        reader.start();
    }

    /** The messages the server pushed on the GET stream so far. */
    public List<JsonNode> pushed() {
        return List.copyOf(pushed);
    }

    /** A JSON-RPC request with the next id; {@code params} may be null. */
    public ObjectNode request(String method, JsonNode params) {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
                .put("method", method);
        if (params != null) {
            message.set("params", params);
        }
        return message;
    }

    /** A JSON answer, or the last JSON-RPC response (a message with an id) of an SSE answer. */
    private static JsonNode body(HttpResponse<String> answer) throws IOException {
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
            throw new IllegalStateException("no JSON-RPC answer in the event stream: " + answer.body());
        }
        return last;
    }

    @Override
    public void close() throws IOException {
        if (stream != null) {
            stream.close();
        }
    }
}
