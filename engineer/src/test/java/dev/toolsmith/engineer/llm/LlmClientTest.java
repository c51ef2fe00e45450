package dev.toolsmith.engineer.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.toolsmith.engineer.config.LlmConfig;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The LLM is called only when configured, and its failures never carry a key into logs or notes. */
class LlmClientTest {

    @Test
    void withoutABaseUrlOrWhenDisabledTheModelIsNeverCalled() {
        ChatModel failing = failingWith("must not be called");
        assertThat(new LlmClient(config(true, null), failing).available()).isFalse();
        assertThat(new LlmClient(config(false, "https://llm.example/v1/"), failing).available()).isFalse();
        assertThatThrownBy(() -> new LlmClient(config(true, " "), failing).ask("s", "u"))
                .isInstanceOf(LlmUnavailableException.class).hasMessage("no LLM is configured");
    }

    @Test
    void aFailureKeepsItsFirstLineWithKeysAndTokensBlanked() {
        ChatModel unauthorized = failingWith("status code: 401; Incorrect API key provided: sk-proj-AbCdEf123456."
                + " Authorization: Bearer abc.def.ghi\nsecond line with the whole body");
        assertThatThrownBy(() -> new LlmClient(config(true, "https://llm.example/v1/"), unauthorized).ask("s", "u"))
                .isInstanceOf(LlmUnavailableException.class)
                .hasMessageStartingWith("the LLM could not be reached: status code: 401; Incorrect API key provided:")
                .hasMessageNotContaining("AbCdEf123456").hasMessageNotContaining("abc.def.ghi")
                .hasMessageNotContaining("second line");
        assertThat(LlmClient.firstLine("token " + "Zm9vYmFy".repeat(6) + " refused")).isEqualTo("token [redacted] refused");
        assertThat(LlmClient.firstLine("Connection refused: llm.example/10.0.0.7:443"))
                .isEqualTo("Connection refused: llm.example/10.0.0.7:443");
    }

    private static ChatModel failingWith(String message) {
        return new ChatModel() {
            @Override
            public ChatResponse chat(ChatRequest request) {
                throw new IllegalStateException(message);
            }
        };
    }

    private static LlmConfig config(boolean enabled, String baseUrl) {
        return new LlmConfig() {
            @Override
            public boolean enabled() {
                return enabled;
            }

            @Override
            public Optional<String> baseUrl() {
                return Optional.ofNullable(baseUrl);
            }
        };
    }
}
