package dev.toolsmith.engineer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.engineer.gaps.ManifestDrafter;
import dev.toolsmith.engineer.llm.LlmUnavailableException;
import dev.toolsmith.engineer.llm.WrapperAdvisor;
import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.engineer.wrapper.GeneratedWrapper;
import dev.toolsmith.engineer.wrapper.WrapperBuilder;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The LLM switched off ({@code toolsmith.llm.enabled=false}, the default): the service starts with its AI
 * services and never calls them, although a base URL points at the stub that would answer. The one test
 * class on its own profile (one more Quarkus start): every other class runs with the LLM on.
 */
@QuarkusTest
@TestProfile(LlmOffTest.LlmOff.class)
class LlmOffTest {

    @Inject
    WrapperAdvisor advisor;

    @Inject
    WrapperBuilder builder;

    @Inject
    ManifestDrafter drafter;

    @Test
    void withTheLlmSwitchedOffTheServiceStartsAndNoAiServiceIsCalled() throws Exception {
        int before = llmCalls();
        ToolApproved approval = EngineerBuildTest.approval("fx.example:rates-" + UUID.randomUUID(),
                Map.of("fx_key", "v1:c2VjcmV0"));
        GeneratedWrapper generated = builder.generate(approval);

        assertThat(advisor.enabled()).isFalse();
        GeneratedWrapper helped = advisor.help(approval, generated);
        assertThat(helped.plugin()).isEqualTo(generated.plugin());
        assertThat(helped.notes()).noneSatisfy(n -> assertThat(n).startsWith("LLM help"));

        assertThat(drafter.available()).isFalse();
        assertThatThrownBy(() -> drafter.draft("CHARTER_YACHT", "charter yacht", "a yacht", List.of("harbour")))
                .isInstanceOf(LlmUnavailableException.class).hasMessage("no LLM is configured");

        assertThat(llmCalls()).isEqualTo(before);
    }

    private static int llmCalls() {
        return LlmAndLibrarianStub.server().findAll(WireMock.postRequestedFor(
                WireMock.urlPathEqualTo("/v1/chat/completions"))).size();
    }

    /** Kafka and PostgreSQL as for every class, but not the resource that switches the LLM on. */
    public static class LlmOff implements QuarkusTestProfile {

        @Override
        public boolean disableGlobalTestResources() {
            return true;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(KafkaTestResource.class),
                    new TestResourceEntry(PostgresTestResource.class, Map.of("database", "toolsmith_test_engineer")));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            String stub = "http://127.0.0.1:" + LlmAndLibrarianStub.server().port();
            return Map.of("toolsmith.llm.enabled", "false", "toolsmith.llm.base-url", stub + "/v1/",
                    "toolsmith.engineer.librarian-url", stub);
        }
    }
}
