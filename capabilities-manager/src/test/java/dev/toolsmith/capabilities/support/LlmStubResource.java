package dev.toolsmith.capabilities.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * WireMock as the OpenAI-compatible LLM, answering with the recorded completions under
 * {@code src/test/resources/wiremock/mappings} (one per decomposition scenario, chosen by the step verb
 * in the prompt). Points {@code toolsmith.llm.*} at it.
 */
public class LlmStubResource implements QuarkusTestResourceLifecycleManager {

    private static WireMockServer server;

    @Override
    public synchronized Map<String, String> start() {
        if (server == null) {
            server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort()
                    .usingFilesUnderClasspath("wiremock"));
            server.start();
        }
        return Map.of("toolsmith.llm.enabled", "true",
                "toolsmith.llm.base-url", "http://127.0.0.1:" + server.port() + "/v1/");
    }

    @Override
    public void stop() {
        // shared by every test class of the module; the JVM's exit stops it
    }

    public static WireMockServer server() {
        return server;
    }
}
