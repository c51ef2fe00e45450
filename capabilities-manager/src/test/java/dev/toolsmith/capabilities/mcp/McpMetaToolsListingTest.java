package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The meta-tools' own listing, as a fresh session's {@code tools/list} shows it, is part of every planner's tool
 * context (docs/mcp.md): it must stay small. The bound is documented in docs/mcp.md; a token count is deterministic
 * (the descriptions are constants, cl100k_base is fixed), so asserting on it is not a timed assertion.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class McpMetaToolsListingTest {

    /** docs/mcp.md: the seven meta-tools' listing (names, descriptions, input schemas) costs at most this. */
    static final int LISTING_TOKEN_BOUND = 500;

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @Test
    void theMetaToolsListingStaysUnderItsBoundAndKeepsEveryArgumentDescribedWhereItsNameIsNotEnough() throws Exception {
        JsonNode listing = toolsList();
        List<String> names = new ArrayList<>();
        listing.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).containsExactlyInAnyOrder("find_tools", "describe_tool", "call_tool", "run_step",
                "load_tools", "unload_tools", "active_tools");
        int tokens = BriefLists.tokens(listing.toString());
        System.out.println("meta-tools listing: " + tokens + " tokens: " + listing);
        assertThat(tokens).as("tokens of the meta-tools' tools/list").isLessThanOrEqualTo(LISTING_TOKEN_BOUND);
        for (JsonNode tool : listing.path("tools")) {
            assertThat(tool.path("description").asText()).as(tool.path("name").asText()).isNotBlank();
        }
        // what the name does not say is still there: the budget's bounds and the refusal reasons stay documented
        JsonNode findTools = tool(listing, "find_tools");
        assertThat(findTools.path("inputSchema").path("properties").path("token_budget").path("description").asText())
                .contains("20").contains("100000");
        assertThat(findTools.path("inputSchema").path("required")).extracting(JsonNode::asText).containsExactly("query");
        assertThat(tool(listing, "run_step").path("inputSchema").path("required")).extracting(JsonNode::asText)
                .containsExactly("verb");
    }

    private static JsonNode tool(JsonNode listing, String name) {
        for (JsonNode tool : listing.path("tools")) {
            if (name.equals(tool.path("name").asText())) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name + " in " + listing);
    }

    /** initialize, notifications/initialized, tools/list over Streamable HTTP with the planner's key. */
    private JsonNode toolsList() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        ObjectNode init = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", "initialize");
        ObjectNode params = init.putObject("params").put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "listing-test").put("version", "1");
        HttpResponse<String> initialized = post(http, init, null);
        assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
        String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(http, JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized"),
                session).statusCode()).isEqualTo(202);
        HttpResponse<String> listed = post(http, JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 2)
                .put("method", "tools/list"), session);
        assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
        return message(listed).path("result");
    }

    private HttpResponse<String> post(HttpClient http, JsonNode message, String session) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2025-06-18")
                .header("Authorization", "Bearer " + PLANNER).POST(HttpRequest.BodyPublishers.ofString(message.toString()));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON-RPC message of an answer sent as JSON or as one SSE event. */
    private static JsonNode message(HttpResponse<String> answer) throws Exception {
        String type = answer.headers().firstValue("Content-Type").orElse("");
        if (!type.startsWith("text/event-stream")) {
            return JSON.readTree(answer.body());
        }
        for (String line : answer.body().split("\n")) {
            if (line.startsWith("data:")) {
                return JSON.readTree(line.substring(5).strip());
            }
        }
        throw new AssertionError("no data in " + answer.body());
    }
}
