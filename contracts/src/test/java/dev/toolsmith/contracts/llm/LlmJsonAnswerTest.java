package dev.toolsmith.contracts.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LlmJsonAnswerTest {

    @Test
    void aBareObjectIsKeptAsItIs() {
        assertThat(LlmJsonAnswer.jsonPart("  {\"verb\": \"GET_RATES\"}\n")).isEqualTo("{\"verb\": \"GET_RATES\"}");
    }

    @Test
    void aBareArrayIsKeptAsItIs() {
        assertThat(LlmJsonAnswer.jsonPart("[{\"id\": \"a\"}, {\"id\": \"b\"}]")).isEqualTo("[{\"id\": \"a\"}, {\"id\": \"b\"}]");
    }

    @Test
    void aFenceWithALanguageTagIsRemoved() {
        assertThat(LlmJsonAnswer.jsonPart("```json\n{\"description\": \"Returns rates.\"}\n```"))
                .isEqualTo("{\"description\": \"Returns rates.\"}");
    }

    @Test
    void aFenceWithoutALanguageTagIsRemoved() {
        assertThat(LlmJsonAnswer.jsonPart("```\n[1, 2]\n```")).isEqualTo("[1, 2]");
    }

    @Test
    void aFenceOnOneLineIsRemoved() {
        assertThat(LlmJsonAnswer.jsonPart("```json {\"a\": 1} ```")).isEqualTo("{\"a\": 1}");
    }

    @Test
    void sentencesAroundAFenceAreDropped() {
        String answer = "Here is the plan you asked for:\n```json\n{\"steps\": []}\n```\nLet me know if {anything} changes.";

        assertThat(LlmJsonAnswer.jsonPart(answer)).isEqualTo("{\"steps\": []}");
    }

    @Test
    void sentencesAroundUnfencedJsonAreDropped() {
        assertThat(LlmJsonAnswer.jsonPart("Sure. {\"verb\": \"SEND_MAIL\"} Hope this helps."))
                .isEqualTo("{\"verb\": \"SEND_MAIL\"}");
    }

    @Test
    void bracesInsideStringsAndNestedValuesStayWhole() {
        String json = "{\"template\": \"Hello {name}\", \"nested\": {\"list\": [1, {\"x\": \"]\"}]}}";

        assertThat(LlmJsonAnswer.jsonPart("```json\n" + json + "\n```")).isEqualTo(json);
    }

    @Test
    void textWithoutJsonComesBackTrimmedSoTheParseErrorShowsIt() {
        assertThat(LlmJsonAnswer.jsonPart("  I cannot help with that.  ")).isEqualTo("I cannot help with that.");
    }

    @Test
    void nullIsTheEmptyString() {
        assertThat(LlmJsonAnswer.jsonPart(null)).isEmpty();
    }
}
