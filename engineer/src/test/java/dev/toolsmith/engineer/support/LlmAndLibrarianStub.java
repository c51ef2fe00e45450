package dev.toolsmith.engineer.support;

import dev.toolsmith.testsupport.RecordedLlmResource;
import java.util.Map;

/**
 * One WireMock server standing in for both services the engineer calls outside Kafka: the
 * OpenAI-compatible LLM (recorded completions under {@code src/test/resources/wiremock/mappings},
 * {@link RecordedLlmResource}) and the librarian's draft endpoint ({@code /tools/pending/drafts}, stubbed
 * by the tests that need it). Every engineer test class uses it, so they all share one Quarkus start.
 */
public class LlmAndLibrarianStub extends RecordedLlmResource {

    /** The engineer's service key in the tests (test application.properties). */
    public static final String SERVICE_KEY = "engineer-test-service-key";

    @Override
    protected Map<String, String> settings(String baseUrl) {
        return Map.of("toolsmith.engineer.librarian-url", baseUrl);
    }
}
