package dev.toolsmith.capabilities.mcp;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * What the MCP server's Quarkus tests stand on: the running service's port, its plugin registry and a WireMock
 * rate API of the class's own (started before its tests, stopped after), for wrapped tools to call.
 */
abstract class McpServerTestBase {

    static WireMockServer api;

    @Inject
    PluginRegistry registry;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @BeforeAll
    static void startApi() {
        api = McpFixtures.startRateApi();
    }

    @AfterAll
    static void stopApi() {
        api.stop();
    }
}
