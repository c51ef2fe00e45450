package dev.toolsmith.engineer.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.engineer.config.LlmConfig;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The LLM is called only when configured; an answer the library cannot read is a refusal naming the problem,
 * any other failure an unavailable LLM whose reason never carries a key into logs or notes.
 */
class LlmClientTest {

    private static final LlmClient CONFIGURED = new LlmClient(config(true, "https://llm.example/v1/"));

    @Test
    void withoutABaseUrlOrWhenDisabledTheServiceIsNeverCalled() {
        Supplier<WrapperAdvice> mustNotRun = () -> {
            throw new AssertionError("must not be called");
        };
        assertThat(new LlmClient(config(true, null)).available()).isFalse();
        assertThat(new LlmClient(config(false, "https://llm.example/v1/")).available()).isFalse();
        assertThatThrownBy(() -> new LlmClient(config(true, " ")).ask(mustNotRun))
                .isInstanceOf(LlmUnavailableException.class).hasMessage("no LLM is configured");
        assertThatThrownBy(() -> new LlmClient(config(false, "https://llm.example/v1/")).ask(mustNotRun))
                .isInstanceOf(LlmUnavailableException.class).hasMessage("no LLM is configured");
    }

    @Test
    void aFailureKeepsItsFirstLineWithKeysAndTokensBlanked() {
        assertThatThrownBy(() -> CONFIGURED.ask(failingWith(new IllegalStateException("status code: 401; Incorrect API"
                + " key provided: sk-proj-AbCdEf123456. Authorization: Bearer abc.def.ghi\nsecond line with the whole body"))))
                .isInstanceOf(LlmUnavailableException.class)
                .hasMessageStartingWith("the LLM could not be reached: status code: 401; Incorrect API key provided:")
                .hasMessageNotContaining("AbCdEf123456").hasMessageNotContaining("abc.def.ghi")
                .hasMessageNotContaining("second line");
        assertThat(LlmClient.firstLine("token " + "Zm9vYmFy".repeat(6) + " refused")).isEqualTo("token [redacted] refused");
        assertThat(LlmClient.firstLine("Connection refused: llm.example/10.0.0.7:443"))
                .isEqualTo("Connection refused: llm.example/10.0.0.7:443");
    }

    @Test
    void anAnswerTheLibraryCannotReadIsARefusalNamingTheProblemNotAnUnavailableLlm() {
        OutputParsingException unreadable = unreadable("Sure! Here is the description.");
        // the library may wrap it; the refusal is found among the causes
        assertThatThrownBy(() -> CONFIGURED.ask(failingWith(new IllegalStateException("wrapped", unreadable))))
                .isInstanceOf(RejectedAnswerException.class).hasMessageStartingWith("the answer is not JSON")
                .hasMessageNotContaining("base64");
        assertThatThrownBy(() -> CONFIGURED.ask(() -> null)).isInstanceOf(RejectedAnswerException.class)
                .hasMessage("the answer is not a JSON object");
    }

    @Test
    void aReadAnswerIsReturnedAsTheServiceGaveIt() throws Exception {
        WrapperAdvice advice = new WrapperAdvice("Returns exchange rates.", "GET_RATES");
        assertThat(CONFIGURED.ask(() -> advice)).isSameAs(advice);
    }

    private static <T> Supplier<T> failingWith(RuntimeException failure) {
        return () -> {
            throw failure;
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

    /** What the library throws when Jackson cannot read {@code answer} into the asked record. */
    private static OutputParsingException unreadable(String answer) {
        try {
            new ObjectMapper().readValue(answer, WrapperAdvice.class);
        } catch (Exception e) {
            return new OutputParsingException("Failed to parse \"" + answer + "\"", new RuntimeException(e));
        }
        throw new AssertionError("readable: " + answer);
    }
}
