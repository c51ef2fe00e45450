package dev.toolsmith.engineer.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.engineer.gaps.DraftAnswer;
import org.junit.jupiter.api.Test;

/**
 * The reason given for an answer the library could not read into its record. The failures are Jackson's own,
 * wrapped as the library wraps them ({@code OutputParsingException} around a {@code RuntimeException}); the
 * Quarkus tests ({@code LlmHelpTest}, {@code DraftAnswersTest}) see the same through the real AI services.
 */
class UnreadableAnswerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void textThatIsNotJsonIsNamedSo() {
        assertThat(reason("Sure! Here is the description.")).startsWith("the answer is not JSON: Unrecognized token 'Sure'");
        assertThat(reason("{\"description\": \"Charters a yacht\", \"inputSchema\": {"))
                .startsWith("the answer is not JSON: Unexpected end-of-input");
        assertThat(UnreadableAnswer.reason(new OutputParsingException("Failed to parse \"\"", null)))
                .isEqualTo("the answer is not JSON");
    }

    @Test
    void aFieldOfTheWrongShapeIsNamedWithWhatWasExpected() {
        assertThat(reason("{\"description\": {\"text\": \"Returns rates.\"}, \"verb\": \"GET_RATES\"}"))
                .isEqualTo("'description' is not a string");
        assertThat(reason("{\"description\": \"Returns rates.\", \"verb\": [\"GET_RATES\"]}"))
                .isEqualTo("'verb' is not a string");
        assertThat(reason("[\"GET_RATES\"]")).isEqualTo("the answer is not a JSON object");
        // Quarkus' mapper ignores a field not asked for; a mapper that refuses one gets it named
        assertThat(reason("{\"description\": \"Returns rates.\", \"verb\": \"GET_RATES\", \"url\": \"x\"}"))
                .isEqualTo("the answer has a field that was not asked for: 'url'");
        assertThat(draftReason("{\"description\": \"Charters a yacht.\", \"risk\": \"HARMLESS\"}"))
                .isEqualTo("'risk' \"HARMLESS\" is not one of READ_ONLY, WRITE_LOCAL, WRITE_REMOTE, DESTRUCTIVE");
        assertThat(draftReason("{\"description\": \"Charters a yacht.\", \"risk\": {\"level\": 1}}"))
                .isEqualTo("'risk' is not one of READ_ONLY, WRITE_LOCAL, WRITE_REMOTE, DESTRUCTIVE");
    }

    @Test
    void onlyTheLibrarysParseFailureIsAnUnreadableAnswer() {
        OutputParsingException unreadable = parseFailure("not json");
        assertThat(UnreadableAnswer.in(new RuntimeException(unreadable))).isSameAs(unreadable);
        assertThat(UnreadableAnswer.in(new IllegalStateException("status code: 500"))).isNull();
    }

    private static String reason(String answer) {
        return UnreadableAnswer.reason(parseFailure(answer, WrapperAdvice.class));
    }

    private static String draftReason(String answer) {
        return UnreadableAnswer.reason(parseFailure(answer, DraftAnswer.class));
    }

    static OutputParsingException parseFailure(String answer) {
        return parseFailure(answer, WrapperAdvice.class);
    }

    /** What the library throws when Jackson cannot read {@code answer} into {@code type}. */
    private static OutputParsingException parseFailure(String answer, Class<?> type) {
        try {
            JSON.readValue(answer, type);
        } catch (Exception e) {
            return new OutputParsingException("Failed to parse \"" + answer + "\" into " + type, new RuntimeException(e));
        }
        throw new AssertionError("readable: " + answer);
    }
}
