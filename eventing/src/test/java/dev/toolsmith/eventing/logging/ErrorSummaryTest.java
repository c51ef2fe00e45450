package dev.toolsmith.eventing.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An outside endpoint's error keeps its gist, never a key, a token or a whole response body. */
class ErrorSummaryTest {

    @Test
    void keepsTheFirstLineWithKeysAndTokensBlanked() {
        String summary = ErrorSummary.firstLine("status code: 401; Incorrect API key provided: sk-proj-AbCdEf123456."
                + " Authorization: Bearer abc.def.ghi\nsecond line with the whole body");
        assertThat(summary).startsWith("status code: 401; Incorrect API key provided: [redacted]")
                .doesNotContain("AbCdEf123456").doesNotContain("abc.def.ghi").doesNotContain("second line");
        assertThat(ErrorSummary.firstLine("token " + "Zm9vYmFy".repeat(6) + " refused")).isEqualTo("token [redacted] refused");
        assertThat(ErrorSummary.firstLine("Connection refused: llm.example/10.0.0.7:443"))
                .isEqualTo("Connection refused: llm.example/10.0.0.7:443");
    }

    @Test
    void blankMessagesAndLongLinesStayShort() {
        assertThat(ErrorSummary.firstLine(null)).isEqualTo("no detail given");
        assertThat(ErrorSummary.firstLine("  \n ")).isEqualTo("no detail given");
        assertThat(ErrorSummary.firstLine("word ".repeat(100))).hasSize(301).endsWith("…");
    }
}
