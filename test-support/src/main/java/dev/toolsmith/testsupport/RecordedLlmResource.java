package dev.toolsmith.testsupport;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * WireMock as the OpenAI-compatible LLM, answering with the recorded completions of the module's
 * {@code src/test/resources/wiremock/mappings} (each chosen by a marker in the prompt). Points
 * {@code toolsmith.llm.*} at it. One server per test JVM, shared by every test class of the module, so
 * they all share one Quarkus start; a subclass adds the settings of other services the same server
 * stands in for ({@link #settings}).
 */
public class RecordedLlmResource implements QuarkusTestResourceLifecycleManager {

    private static WireMockServer server;

    @Override
    public Map<String, String> start() {
        Map<String, String> settings = new HashMap<>();
        String base = "http://127.0.0.1:" + started().port();
        settings.put("toolsmith.llm.enabled", "true");
        settings.put("toolsmith.llm.base-url", base + "/v1/");
        settings.putAll(settings(base));
        return settings;
    }

    /** More settings pointing at {@code baseUrl}; none here. */
    protected Map<String, String> settings(String baseUrl) {
        return Map.of();
    }

    @Override
    public void stop() {
        // shared by every test class of the module; the JVM's exit stops it
    }

    public static WireMockServer server() {
        return started();
    }

    private static synchronized WireMockServer started() {
        if (server == null) {
            server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort()
                    .usingFilesUnderClasspath("wiremock"));
            server.start();
        }
        return server;
    }
}
