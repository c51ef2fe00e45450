package dev.toolsmith.capabilities.mcp;

import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.id;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.rateTool;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.airlock.UsagePolicy;

/** Wrapped rate tools of the MCP tests' own, each with a fresh id and verb, registered through plugin-built. */
final class RateTools {

    private RateTools() {
    }

    /** Registers {@code <name>-<suffix>.rate} (verb {@code RATE_<NAME>_<SUFFIX>}) with {@code policy}; its id. */
    static String add(PluginRegistry registry, WireMockServer api, String name, UsagePolicy policy) {
        String suffix = id("x").substring(2);
        String toolId = name + "-" + suffix + ".rate";
        register(registry, rateTool(toolId, "RATE_" + name.toUpperCase() + "_"
                + suffix.toUpperCase(), api, null, 5_000, 0, null), policy);
        return toolId;
    }
}
