package dev.toolsmith.engineer.support;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * One WireMock server standing in for both services the engineer calls outside Kafka: the
 * OpenAI-compatible LLM ({@code /v1/chat/completions}, answering with the recorded completions under
 * {@code src/test/resources/wiremock/mappings}, chosen by a scenario marker in the prompt) and the
 * librarian's draft endpoint ({@code /tools/pending/drafts}, stubbed by the tests that need it). Every
 * engineer test class uses it, so they all share one Quarkus start.
 */
public class LlmAndLibrarianStub implements QuarkusTestResourceLifecycleManager {

    /** The engineer's service key in the tests (test application.properties). */
    public static final String SERVICE_KEY = "engineer-test-service-key";

    private static WireMockServer server;

    @Override
    public synchronized Map<String, String> start() {
        if (server == null) {
            server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort()
                    .usingFilesUnderClasspath("wiremock"));
            server.start();
        }
        String base = "http://127.0.0.1:" + server.port();
        return Map.of("toolsmith.llm.enabled", "true",
                "toolsmith.llm.base-url", base + "/v1/",
                "toolsmith.engineer.librarian-url", base);
    }

    @Override
    public void stop() {
        // shared by every test class of the module; the JVM's exit stops it
    }

    public static WireMockServer server() {
        return server;
    }
}
