package dev.toolsmith.capabilities.mcp;

import io.quarkiverse.mcp.server.InitialRequest;
import io.quarkiverse.mcp.server.McpMethod;
import io.quarkiverse.mcp.server.runtime.McpRequest;
import io.quarkiverse.mcp.server.runtime.McpTracing;
import io.quarkiverse.mcp.server.runtime.McpTracingSpan;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;

/**
 * The MCP server's tracing: no span per MCP request, and the request's {@code params._meta} is never read for a
 * trace parent.
 *
 * <p>Why it replaces the library's: with the OpenTelemetry SDK extension present, quarkus-mcp-server 1.13.0 adds
 * {@code McpTracingInstrumenter}, whose {@code startSpan} runs before any handler and extracts a parent from
 * {@code params._meta} through a getter that casts {@code _meta} to a JSON object; its own switch
 * ({@code quarkus.mcp.server.tracing.enabled}, false by default) is consulted only after that. A request whose
 * {@code _meta} is a string, a number or an array then ends in a {@code ClassCastException} and an HTTP 500: a
 * client's mistake made a server error. Its spans would not be wanted either: like every automatic
 * instrumentation here they stay off, so a trace holds only Toolsmith's spans, and the spans of an MCP call (its
 * tool's {@code execute}) start a trace of their own instead of adopting a parent a caller names in {@code _meta}.
 *
 * <p>An enabled alternative wins over the library's bean, which {@code McpMessageHandler} and the tool manager
 * look up by the {@link McpTracing} type ({@code NoMcpRequestSpansTest} checks that ArC resolves this one).
 */
@Alternative
@Priority(1)
@Singleton
public class NoMcpRequestSpans implements McpTracing {

    @Override
    public McpTracingSpan startSpan(McpMethod method, JsonObject message, McpRequest request,
            InitialRequest.Transport transport) {
        return McpTracingSpan.NOOP;
    }

    // injectMcpOtelContext keeps the interface's default: nothing is added to the _meta of requests sent to clients.
}
