package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER_NAME;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code tools/list} with a query in {@code params._meta["dev.toolsmith/query"]}, over real HTTP with the raw
 * client: only the session's loaded tools that match are listed (the meta-tools always); another session's and
 * another planner's tools never; a query that cannot be used hides the loaded tools and leaves the session working;
 * and a session's whole listing (at most 39 tools) is one page of the default 50.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class McpListingQueryTest extends McpServerTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String OTHER_PLANNER = "planner-test-key";
    private static final List<String> META_TOOLS = McpFixtures.META_TOOLS;


    @Test
    void aQueryListsTheMetaToolsAndTheLoadedToolsItMatchesPageByPageAndNeverAnotherSessionsTools() throws Exception {
        String alpha = tool("alpha", UsagePolicy.unrestricted());
        String bravo = tool("bravo", UsagePolicy.unrestricted());
        String charlie = tool("charlie", UsagePolicy.unrestricted());
        try (McpClient one = new McpClient(port, PLANNER); McpClient other = new McpClient(port, PLANNER)) {
            one.initialize();
            other.initialize();
            JsonNode loaded = McpClient.structured(one.callTool("load_tools", Map.of("ids", List.of(alpha, bravo,
                    charlie))));
            assertThat(loaded.path("active").size()).isEqualTo(3);
            List<String> all = withMeta(verb(alpha), verb(bravo), verb(charlie));

            assertThat(list(one, null)).containsExactlyInAnyOrderElementsOf(all);
            assertThat(list(one, NODES.textNode("bravo"))).containsExactlyInAnyOrderElementsOf(withMeta(verb(bravo)));
            // identifiers are split as the resolver's normaliser splits them; a word may be the start of one
            assertThat(list(one, NODES.textNode("RateBravo"))).containsExactlyInAnyOrderElementsOf(
                    withMeta(verb(bravo)));
            assertThat(list(one, NODES.textNode("rate_brav"))).containsExactlyInAnyOrderElementsOf(
                    withMeta(verb(bravo)));
            // description words and parameter names count too; every word of the query must match
            assertThat(list(one, NODES.textNode("Looks up CASE?"))).containsExactlyInAnyOrderElementsOf(all);
            assertThat(list(one, NODES.textNode("bravo charlie"))).containsExactlyInAnyOrderElementsOf(META_TOOLS);
            assertThat(list(one, NODES.textNode("   "))).containsExactlyInAnyOrderElementsOf(all);
            assertThat(list(one, NODES.nullNode())).containsExactlyInAnyOrderElementsOf(all);

            // the other session of the same planner asks for the first one's tools by name and gets none of them
            assertThat(list(other, NODES.textNode(verb(bravo)))).containsExactlyInAnyOrderElementsOf(META_TOOLS);
            assertThat(list(other, NODES.textNode("rate"))).containsExactlyInAnyOrderElementsOf(META_TOOLS);

            // a query narrows what is listed, never what may be called
            JsonNode called = one.callTool(verb(charlie), Map.of("case", charlie));
            assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
        }
    }

    @Test
    void aQueryThatIsNotAStringTooLongOrHoldsControlCharactersHidesTheLoadedToolsAndKeepsTheSession()
            throws Exception {
        String toolId = tool("hostile", UsagePolicy.unrestricted());
        try (McpClient mcp = new McpClient(port, PLANNER)) {
            mcp.initialize();
            McpClient.structured(mcp.callTool("load_tools", Map.of("ids", List.of(toolId))));
            List<String> all = withMeta(verb(toolId));

            String longest = ("rate ".repeat(60)).substring(0, ListingQuery.MAX_CHARS);
            assertThat(list(mcp, NODES.textNode(longest))).containsExactlyInAnyOrderElementsOf(all);

            List<JsonNode> hostile = List.of(NODES.numberNode(7), NODES.booleanNode(true),
                    JSON.createObjectNode().put("q", "rate"), JSON.createArrayNode().add("rate"),
                    NODES.textNode(longest + "r"), NODES.textNode("rate\u0000"), NODES.textNode("rate\nhostile"),
                    NODES.textNode("\u001b[31mrate"), NODES.textNode("rate\u007f"));
            for (JsonNode query : hostile) {
                assertThat(list(mcp, query)).as("query %s", query).containsExactlyInAnyOrderElementsOf(META_TOOLS);
            }
            // _meta or params of the wrong JSON type: no query can be read, so none of the loaded tools is listed
            for (JsonNode params : List.of(JSON.createObjectNode().put("_meta", "dev.toolsmith/query"),
                    JSON.createObjectNode().set("_meta", JSON.createArrayNode().add("rate")))) {
                HttpResponse<String> answer = mcp.post(mcp.request("tools/list", params));
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                JsonNode message = JSON.readTree(answer.body());
                assertThat(message.has("error")).as(answer.body()).isFalse();
                List<String> names = new ArrayList<>();
                message.path("result").path("tools").forEach(t -> names.add(t.path("name").asText()));
                assertThat(names).as(answer.body()).doesNotContain(verb(toolId)).isSubsetOf(META_TOOLS);
            }

            // the session is still there and whole
            assertThat(list(mcp, null)).containsExactlyInAnyOrderElementsOf(all);
            JsonNode called = mcp.callTool(verb(toolId), Map.of("case", toolId));
            assertThat(called.path("isError").asBoolean()).as(called.toString()).isFalse();
        }
    }

    @Test
    void thePlannerWhoseKeyAuthenticatedDecidesAndAQueryShowsAnotherPlannerNothingExtra() throws Exception {
        String onlyA = tool("onlya", new UsagePolicy(null, null, null, List.of(PLANNER_NAME), null));
        try (McpClient a = new McpClient(port, PLANNER); McpClient b = new McpClient(port, OTHER_PLANNER)) {
            a.initialize();
            b.initialize();
            McpClient.structured(a.callTool("load_tools", Map.of("ids", List.of(onlyA))));
            JsonNode refused = McpClient.structured(b.callTool("load_tools", Map.of("ids", List.of(onlyA))));
            assertThat(refused.path("active").size()).isZero();
            assertThat(refused.path("refused").path(0).asText()).startsWith(onlyA + ": no tool");

            assertThat(list(a, NODES.textNode("onlya"))).containsExactlyInAnyOrderElementsOf(
                    withMeta(verb(onlyA)));
            assertThat(list(b, NODES.textNode("onlya"))).containsExactlyInAnyOrderElementsOf(META_TOOLS);
            assertThat(list(b, null)).containsExactlyInAnyOrderElementsOf(META_TOOLS);

            // the other planner's key with the first planner's session id: the set it sees and uses is its own (empty)
            String listed = borrowed(a, a.request("tools/list", params(NODES.textNode("onlya"))));
            assertThat(listed).contains("find_tools").doesNotContain(verb(onlyA));
            assertThat(borrowed(a, a.request("tools/list", null))).contains("find_tools").doesNotContain(verb(onlyA));
            assertThat(borrowed(a, a.request("tools/call", JSON.createObjectNode().put("name", "active_tools")
                    .set("arguments", JSON.createObjectNode())))).contains("\"active\":[]").doesNotContain(onlyA);
            String called = borrowed(a, a.request("tools/call", JSON.createObjectNode().put("name", verb(onlyA))
                    .set("arguments", JSON.valueToTree(Map.of("case", onlyA)))));
            assertThat(called).doesNotContain("SUCCEEDED").doesNotContain("1.5");
            // and the first planner's set is untouched
            assertThat(list(a, null)).containsExactlyInAnyOrderElementsOf(withMeta(verb(onlyA)));
        }
    }

    /** The HTTP answer to {@code message} sent with the other planner's key in {@code owner}'s session. */
    private String borrowed(McpClient owner, JsonNode message) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest
                .newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", McpClient.PROTOCOL).header("Authorization", "Bearer " + OTHER_PLANNER)
                .header("Mcp-Session-Id", owner.session())
                .POST(HttpRequest.BodyPublishers.ofString(message.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return answer.body();
    }

    @Test
    void aFullActiveSetIsListedOnOnePageWithOrWithoutAQuery() throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < ActiveToolSets.MAX_PER_SESSION; i++) {
            ids.add(tool("full", UsagePolicy.unrestricted()));
        }
        try (McpClient mcp = new McpClient(port, PLANNER)) {
            mcp.initialize();
            assertThat(McpClient.structured(mcp.callTool("load_tools", Map.of("ids", ids))).path("active").size())
                    .isEqualTo(ActiveToolSets.MAX_PER_SESSION);
            List<String> all = withMeta(ids.stream().map(this::verb).toArray(String[]::new));
            // the whole set on one page of the default 50 (McpListingPagesTest follows smaller pages)
            assertThat(list(mcp, null)).containsExactlyInAnyOrderElementsOf(all);
            assertThat(list(mcp, NODES.textNode("rate full"))).containsExactlyInAnyOrderElementsOf(all);
            assertThat(list(mcp, NODES.textNode(verb(ids.get(5))))).containsExactlyInAnyOrderElementsOf(
                    withMeta(verb(ids.get(5))));
        }
    }

    private String tool(String name, UsagePolicy policy) {
        return McpFixtures.rateTool(registry, api, name, policy);
    }

    private String verb(String toolId) {
        return registry.byToolId(toolId).orElseThrow().verb();
    }

    private static List<String> withMeta(String... verbs) {
        return Stream.concat(META_TOOLS.stream(), Stream.of(verbs)).toList();
    }

    /** The session's tools/list with {@code query} (if not null): its names, all on one page. */
    private static List<String> list(McpClient mcp, JsonNode query) throws Exception {
        JsonNode page = mcp.call("tools/list", params(query));
        assertThat(page.has("nextCursor")).as("a second page: %s", page).isFalse();
        List<String> names = new ArrayList<>();
        page.path("tools").forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    private static ObjectNode params(JsonNode query) {
        ObjectNode params = JSON.createObjectNode();
        if (query != null) {
            params.putObject("_meta").set(ListingQuery.KEY, query);
        }
        return params;
    }
}
