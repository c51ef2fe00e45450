package dev.toolsmith.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.util.List;
import java.util.Map;

/** Small builders for the manifests the executor tests run. */
final class Tools {

    static final ObjectMapper JSON = new ObjectMapper();

    private Tools() {
    }

    /** WireMock's baseUrl says localhost; the tests approve the address itself. */
    static String base(com.github.tomakehurst.wiremock.WireMockServer server) {
        return "http://127.0.0.1:" + server.port();
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ParameterBinding param(String name, ParameterLocation location, String style, Boolean explode) {
        return new ParameterBinding(name, null, location, style, explode, false);
    }

    static HttpBinding binding(String method, String serverUrl, String path, List<ParameterBinding> parameters,
            BodyEncoding body, AuthBinding auth, int timeoutMs, long maxBytes) {
        return new HttpBinding(method, serverUrl, path, parameters, body, auth, timeoutMs, maxBytes);
    }

    static ToolManifest tool(HttpBinding binding, JsonNode inputSchema, JsonNode outputSchema) {
        return new ToolManifest("test.tool", "TEST_TOOL", "test tool", "a tool under test", ToolSourceType.OPENAPI,
                "test", "test", List.of(), inputSchema, outputSchema, Risk.READ_ONLY, binding, null, 1, null);
    }

    static Map<String, JsonNode> inputs(String json) {
        JsonNode node = json(json);
        java.util.LinkedHashMap<String, JsonNode> map = new java.util.LinkedHashMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }
}
