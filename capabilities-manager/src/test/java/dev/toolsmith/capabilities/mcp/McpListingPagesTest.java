package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A session's {@code tools/list} cut into pages of three, followed by its cursor to the end, with and without a
 * query: every tool comes exactly once. Loaded tools are named by upper-case verbs, which sort before the
 * meta-tools' names, so a cursor that skips tools named before the page's last one (the library bug of
 * quarkiverse/quarkus-mcp-server#672, in 1.10.1) loses them here.
 */
@QuarkusTest
@TestProfile(McpListingPagesTest.PagesOfThree.class)
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class McpListingPagesTest extends McpServerTestBase {

    /** Pages far smaller than a session's listing, so every listing takes several. */
    public static class PagesOfThree implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.mcp.server.tools.page-size", "3");
        }
    }


    @Test
    void everyToolComesExactlyOnceWhenTheListingIsFollowedPageByPage() throws Exception {
        List<String> ids = new ArrayList<>();
        for (String name : List.of("paged", "paged", "paged", "paged", "paged")) {
            ids.add(McpFixtures.rateTool(registry, api, name, UsagePolicy.unrestricted()));
        }
        try (McpClient mcp = new McpClient(port, PLANNER)) {
            mcp.initialize();
            assertThat(McpClient.structured(mcp.callTool("load_tools", Map.of("ids", ids))).path("active").size())
                    .isEqualTo(ids.size());
            List<String> verbs = ids.stream().map(id -> registry.byToolId(id).orElseThrow().verb()).toList();

            assertThat(allPages(mcp, null)).containsExactlyInAnyOrderElementsOf(
                    Stream.concat(McpFixtures.META_TOOLS.stream(), verbs.stream()).toList());
            // the query goes with every page; the meta-tools always stay listed
            assertThat(allPages(mcp, verbs.get(3))).containsExactlyInAnyOrderElementsOf(
                    Stream.concat(McpFixtures.META_TOOLS.stream(), Stream.of(verbs.get(3))).toList());
        }
    }

    /** Every name of the session's listing, following {@code nextCursor} to the end, with {@code query} if given. */
    private static List<String> allPages(McpClient mcp, String query) throws Exception {
        List<String> names = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            ObjectNode params = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            if (query != null) {
                params.putObject("_meta").put(ListingQuery.KEY, query);
            }
            if (cursor != null) {
                params.put("cursor", cursor);
            }
            JsonNode page = mcp.call("tools/list", params);
            page.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
            assertThat(++pages).as("pages of a listing of at most 12 tools").isLessThan(10);
        } while (cursor != null);
        return names;
    }
}
