package dev.toolsmith.capabilities.mcp;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.id;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.util.List;

/** What the MCP server tests share: the meta-tools' names, and wrapped rate tools of their own over a WireMock API. */
final class McpFixtures {

    static final List<String> META_TOOLS = List.of("find_tools", "describe_tool", "call_tool", "run_step",
            "load_tools", "unload_tools", "active_tools");

    private McpFixtures() {
    }

    /** A WireMock API whose GET /rate answers {"rate": 1.5}. */
    static WireMockServer startRateApi() {
        WireMockServer api = WrappedPlugins.startApi();
        api.stubFor(get(urlPathEqualTo("/rate")).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 1.5}")));
        return api;
    }

    /** Registers {@code <name>-<suffix>.rate} (verb {@code RATE_<NAME>_<SUFFIX>}) with {@code policy}; its id. */
    static String rateTool(PluginRegistry registry, WireMockServer api, String name, UsagePolicy policy) {
        String suffix = id("x").substring(2);
        String toolId = name + "-" + suffix + ".rate";
        register(registry, WrappedPlugins.rateTool(toolId, "RATE_" + name.toUpperCase() + "_" + suffix.toUpperCase(),
                api, null, 5_000, 0, null), policy);
        return toolId;
    }
}
