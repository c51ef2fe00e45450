package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.support.CollectedSpans;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.mcp.McpClient;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.mcp.server.runtime.McpTracing;
import io.quarkiverse.mcp.server.runtime.tracing.McpTracingInstrumenter;
import io.quarkus.arc.Arc;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The MCP server with quarkus-opentelemetry present: quarkus-mcp-server 1.13.0's own tracing would cast a request's
 * {@code params._meta} to an object and answer 500 when it is not one, and would continue a trace a caller names in
 * {@code _meta}. {@link NoMcpRequestSpans} replaces it; these tests send what broke it, over real HTTP.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class NoMcpRequestSpansTest extends McpServerTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NO_SPAN = "0000000000000000";

    @Inject
    CollectedSpans spans;

    @Test
    void arcResolvesTheReplacementAlthoughTheLibrarysInstrumenterIsABeanToo() {
        // The library adds its instrumenter only when the OpenTelemetry SDK extension is there: without this
        // bean the test below would prove nothing about the replacement.
        assertThat(Arc.container().select(McpTracingInstrumenter.class).isResolvable()).isTrue();
        assertThat(Arc.container().select(McpTracing.class).get()).isInstanceOf(NoMcpRequestSpans.class);
    }

    @Test
    void aMetaThatIsNotAnObjectGetsAJsonRpcAnswerOnToolsListAndToolsCallAndLeavesTheSessionWhole() throws Exception {
        String toolId = McpFixtures.rateTool(registry, api, "metatype", UsagePolicy.unrestricted());
        String verb = registry.byToolId(toolId).orElseThrow().verb();
        try (McpClient mcp = new McpClient(port, PLANNER)) {
            mcp.initialize();
            McpClient.structured(mcp.callTool("load_tools", Map.of("ids", List.of(toolId))));
            List<JsonNode> metas = List.of(JSON.getNodeFactory().textNode("dev.toolsmith/query"),
                    JSON.getNodeFactory().numberNode(7), JSON.createArrayNode().add("traceparent"));
            for (JsonNode meta : metas) {
                JsonNode listed = answer(mcp, mcp.request("tools/list", JSON.createObjectNode().set("_meta", meta)));
                assertThat(listed.has("error")).as("tools/list, _meta %s: %s", meta, listed).isFalse();
                // no query can be read from it, so the listing is the meta-tools alone (docs/mcp.md)
                assertThat(names(listed)).as("_meta %s", meta).containsExactlyInAnyOrderElementsOf(McpFixtures.META_TOOLS);

                // The call itself is refused as a JSON-RPC error, not by tracing: quarkus-mcp-server 1.13.0 reads a
                // progress token from _meta with the same kind of cast (Messages.getProgressToken) and answers the
                // ClassCastException as -32603; the tool does not run.
                JsonNode refused = answer(mcp, mcp.request("tools/call", call(verb, toolId).set("_meta", meta)));
                assertThat(refused.path("error").path("code").asInt()).as("tools/call, _meta %s: %s", meta, refused)
                        .isEqualTo(-32603);
                assertThat(refused.has("result")).as("_meta %s: %s", meta, refused).isFalse();
            }
            // and the session is whole: the same call without the bad _meta runs the tool
            JsonNode called = answer(mcp, mcp.request("tools/call", call(verb, toolId)));
            assertThat(called.path("result").path("isError").asBoolean()).as(called.toString()).isFalse();
            assertThat(McpClient.text(called.path("result"))).as(called.toString()).contains("1.5");
        }
    }

    @Test
    void aTraceparentInMetaIsNeverAdoptedAndTheCallRunsInATraceOfItsOwn() throws Exception {
        String foreign = UUID.randomUUID().toString().replace("-", "");
        List<JsonNode> traceparents = List.of(
                JSON.getNodeFactory().textNode("not-a-traceparent"),
                JSON.getNodeFactory().textNode("00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
                JSON.getNodeFactory().textNode("00-" + foreign + "-" + NO_SPAN + "-01"),
                JSON.getNodeFactory().numberNode(42),
                // well formed: MCP's own tracing would continue it; Toolsmith does not take a parent from _meta
                JSON.getNodeFactory().textNode("00-" + foreign + "-00f067aa0ba902b7-01"));
        List<String> toolIds = new ArrayList<>();
        for (int i = 0; i < traceparents.size(); i++) {
            toolIds.add(McpFixtures.rateTool(registry, api, "forged", UsagePolicy.unrestricted()));
        }
        try (McpClient mcp = new McpClient(port, PLANNER)) {
            mcp.initialize();
            McpClient.structured(mcp.callTool("load_tools", Map.of("ids", toolIds)));
            for (int i = 0; i < traceparents.size(); i++) {
                JsonNode traceparent = traceparents.get(i);
                String toolId = toolIds.get(i);
                String verb = registry.byToolId(toolId).orElseThrow().verb();
                ObjectNode meta = JSON.createObjectNode().set("traceparent", traceparent);

                JsonNode listed = answer(mcp, mcp.request("tools/list", JSON.createObjectNode().set("_meta", meta)));
                assertThat(names(listed)).as("traceparent %s: %s", traceparent, listed).contains(verb);
                JsonNode called = answer(mcp, mcp.request("tools/call", call(verb, toolId).set("_meta", meta.deepCopy())));
                assertThat(called.path("result").path("isError").asBoolean()).as("traceparent %s: %s", traceparent, called)
                        .isFalse();

                SpanData execute = awaitOne("execute " + toolId);
                assertThat(execute.getParentSpanId()).as("traceparent %s", traceparent).isEqualTo(NO_SPAN);
                assertThat(execute.getTraceId()).as("traceparent %s", traceparent).isNotEqualTo(foreign)
                        .isNotEqualTo("00000000000000000000000000000000");
                // no MCP request span beside it: the trace is the call's execution alone
                assertThat(spans.ofTrace(execute.getTraceId())).extracting(SpanData::getName)
                        .as("traceparent %s", traceparent).containsExactly("execute " + toolId);
            }
        }
        assertThat(spans.ofTrace(foreign)).isEmpty();
    }

    private static ObjectNode call(String verb, String toolId) {
        ObjectNode params = JSON.createObjectNode().put("name", verb);
        params.putObject("arguments").put("case", toolId);
        return params;
    }

    /**
     * The JSON-RPC answer to {@code request}, which must come as HTTP 200 (the library's tracing answered 500),
     * carry the request's id, and be a JSON body or the last message of an event stream.
     */
    private static JsonNode answer(McpClient mcp, ObjectNode request) throws Exception {
        HttpResponse<String> http = mcp.post(request);
        assertThat(http.statusCode()).as("%s -> %s", request, http.body()).isEqualTo(200);
        JsonNode answer = null;
        if (http.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            for (String line : http.body().split("\n")) {
                if (line.startsWith("data:")) {
                    answer = JSON.readTree(line.substring(5).strip());
                }
            }
        } else {
            answer = JSON.readTree(http.body());
        }
        assertThat(answer).as(http.body()).isNotNull();
        assertThat(answer.path("id").asLong()).as(http.body()).isEqualTo(request.path("id").asLong());
        return answer;
    }

    private static List<String> names(JsonNode listed) {
        List<String> names = new ArrayList<>();
        listed.path("result").path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        return names;
    }

    private SpanData awaitOne(String name) {
        await().atMost(Duration.ofSeconds(10)).until(() -> !spans.named(name).isEmpty());
        List<SpanData> named = spans.named(name);
        assertThat(named).hasSize(1);
        return named.get(0);
    }
}
