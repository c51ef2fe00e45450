package dev.toolsmith.capabilities.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.capabilities.config.DecompositionLlmConfig;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** With no LLM configured, ACCOMPLISH never calls a model and says why it could not decompose. */
class PlanDecomposerWithoutLlmTest {

    private final AtomicInteger calls = new AtomicInteger();
    private final DecompositionLlm llm = (instructions, request) -> {
        calls.incrementAndGet();
        throw new AssertionError("no LLM may be called when none is configured");
    };

    private static DecompositionLlmConfig config(boolean enabled, Optional<String> baseUrl) {
        return new DecompositionLlmConfig() {
            @Override
            public boolean enabled() {
                return enabled;
            }

            @Override
            public Optional<String> baseUrl() {
                return baseUrl;
            }

            @Override
            public int maxVerbsInPrompt() {
                return 10;
            }

            @Override
            public int maxPlanSteps() {
                return 5;
            }
        };
    }

    @Test
    void disabledOrWithoutABaseUrlTheDecomposerIsNotAvailableAndCallsNothing() {
        for (DecompositionLlmConfig config : List.of(config(false, Optional.of("http://127.0.0.1:1/v1/")), config(true, Optional.empty()),
                config(true, Optional.of(" ")))) {
            PlanDecomposer decomposer = new PlanDecomposer(config, llm, new PluginRegistry(null), new ContractCodec());
            assertThat(decomposer.available()).isFalse();
            PlanDecomposer.Decomposition result = decomposer.decompose(
                    new PlanStep("s", "p", "DO_MAGIC", null, null, null, null), null).await().indefinitely();
            assertThat(result.succeeded()).isFalse();
            assertThat(result.failure()).isEqualTo("no LLM is configured for decomposition");
        }
        assertThat(calls).hasValue(0);
        assertThat(config(true, Optional.of("http://127.0.0.1:1/v1/")).configured()).isTrue();
    }
}
