package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.e2e.demo.AirlockAdmin;
import dev.toolsmith.e2e.demo.FxRatesApi;
import dev.toolsmith.testsupport.mcp.McpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An MCP client's whole session against the launched platform, in raw JSON-RPC over HTTP: initialize, the
 * meta-tools in tools/list, find_tools and describe_tool of an API approved through the airlock, load_tools
 * (list_changed on the session's stream, the tool in tools/list), a call of the loaded tool that reaches the API,
 * a call past the tool's quota refused as a tool error (not a transport error), and a wrong bearer answered 401.
 */
@ExtendWith(Platform.class)
class McpIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aClientFindsDescribesLoadsAndCallsAToolAndAQuotaRefusalIsAToolError() throws Exception {
        try (FxRatesApi api = new FxRatesApi("fx-mcp-it", "mcpIt_")) {
            AirlockAdmin airlock = new AirlockAdmin(Platform.librarian(), Platform.get().adminKey());
            JsonNode source = airlock.registerAndScan("mcp-it", api.documentUrl());
            JsonNode candidate = airlock.candidate(source.path("id").asText(), "MCP_IT_CONVERT_AMOUNT");
            ObjectNode policy = airlock.newObject();
            policy.putObject("quota").put("perDay", 1);
            airlock.approveAndAwaitActive(candidate, policy, Duration.ofMinutes(3));
            String toolId = candidate.path("toolId").asText();

            try (McpClient mcp = new McpClient(Platform.capabilities() + "/mcp", Platform.get().plannerKey())) {
                mcp.initialize();
                assertThat(names(mcp.exchange("tools/list", JSON.createObjectNode()))).containsExactlyInAnyOrder(
                        "find_tools", "describe_tool", "call_tool", "run_step", "load_tools", "unload_tools", "active_tools");

                // the librarian's index follows the catalog topic: found once it has caught up
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> ids(mcp.callTool(
                        "find_tools", Map.of("query", "convert an amount between currencies", "token_budget", 800)))
                        .contains(toolId));
                JsonNode described = content(mcp.callTool("describe_tool", Map.of("id", toolId)));
                assertThat(described.path("inputSchema").path("required")).isNotEmpty();
                assertThat(described.path("policy").path("quotaLeftToday").asLong()).isEqualTo(1);

                mcp.listen();
                JsonNode loaded = mcp.callTool("load_tools", Map.of("ids", List.of(toolId)));
                assertThat(loaded.path("isError").asBoolean()).isFalse();
                assertThat(content(loaded).path("active")).extracting(JsonNode::asText).contains(toolId);
                await().atMost(Duration.ofSeconds(10)).until(() -> mcp.pushed().stream()
                        .anyMatch(m -> "notifications/tools/list_changed".equals(m.path("method").asText())));
                assertThat(names(mcp.exchange("tools/list", JSON.createObjectNode()))).contains("MCP_IT_CONVERT_AMOUNT");

                Map<String, Object> arguments = Map.of("amount", 100, "from", "EUR", "to", "USD");
                JsonNode called = mcp.callTool("MCP_IT_CONVERT_AMOUNT", arguments);
                assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
                assertThat(content(called).path("status").asText()).isEqualTo("SUCCEEDED");
                assertThat(api.conversions()).isEqualTo(1);

                JsonNode refused = mcp.callTool("call_tool", Map.of("id", toolId, "arguments", arguments));
                assertThat(refused.path("isError").asBoolean()).isTrue();
                JsonNode reason = content(refused);
                assertThat(reason.path("status").asText()).isEqualTo("DENIED");
                assertThat(reason.path("error").asText()).contains("quota", toolId);
                assertThat(api.conversions()).as("a refused call never reaches the API").isEqualTo(1);
            }
            try (McpClient stranger = new McpClient(Platform.capabilities() + "/mcp", "not-a-key")) {
                assertThat(stranger.initializeAnswer().statusCode()).isEqualTo(401);
            }
            // out of the catalog again: a look-alike FX tool with a quota of one call would refuse the later tests' steps
            given().header("X-API-Key", Platform.get().adminKey()).queryParam("reason", "McpIT is done")
                    .delete(Platform.librarian() + "/tools/" + toolId).then().statusCode(204);
        }
    }

    /**
     * The JSON of a tool result's text content, as a client that ignores structured content reads it. (Not
     * McpClient.structured, which also checks both agree: describe_tool's health.lastProbeAt is a number in the text
     * and an ISO string in structuredContent.)
     */
    private static JsonNode content(JsonNode toolResult) throws Exception {
        return JSON.readTree(McpClient.text(toolResult));
    }

    private static List<String> names(JsonNode toolsList) {
        List<String> names = new ArrayList<>();
        toolsList.path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static List<String> ids(JsonNode findResult) throws Exception {
        List<String> ids = new ArrayList<>();
        content(findResult).path("tools").forEach(t -> ids.add(t.path("id").asText()));
        return ids;
    }
}
