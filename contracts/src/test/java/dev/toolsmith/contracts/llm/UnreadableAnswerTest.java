package dev.toolsmith.contracts.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reason given for an answer an AI service could not read into its record. The failures are Jackson's own,
 * wrapped as LangChain4j wraps them (its parsing exception around a {@code RuntimeException}); the services' tests
 * (engineer {@code LlmHelpTest}, capabilities-manager {@code PlanDecomposerLlmTest}, planner-agent
 * {@code PlanningChatTest}) see the same through the real AI services.
 */
class UnreadableAnswerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper STRICT_TEXT = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    enum Risk { READ_ONLY, WRITE_LOCAL, DESTRUCTIVE }

    record Advice(String description, String verb) {
    }

    record Draft(String description, Risk risk) {
    }

    record Plan(List<Step> steps) {
    }

    record Step(String stepId, String actionVerb) {
    }

    @Test
    void textThatIsNotJsonIsNamedSoWithJacksonsFirstLine() {
        assertThat(reason("Sure! Here is the description.", Advice.class))
                .startsWith("the answer is not JSON: Unrecognized token 'Sure'").doesNotContain("\n");
        assertThat(reason("{\"description\": \"Charters a yacht\", \"verb\": ", Advice.class))
                .startsWith("the answer is not JSON: Unexpected end-of-input");
        assertThat(UnreadableAnswer.reason(new IllegalStateException("Failed to parse \"\"")))
                .isEqualTo("the answer is not JSON");
    }

    @Test
    void aFieldOfTheWrongShapeIsNamedByWhereItIsAndWhatWasExpected() {
        assertThat(reason("{\"description\": {\"text\": \"Returns rates.\"}, \"verb\": \"GET_RATES\"}", Advice.class))
                .isEqualTo("'description' is not a string");
        assertThat(reason("[\"GET_RATES\"]", Advice.class)).isEqualTo("the answer is not a JSON object");
        assertThat(reason("{\"steps\": {\"stepId\": \"s1\"}}", Plan.class)).isEqualTo("'steps' is not an array");
        assertThat(reason("{\"steps\": [{\"stepId\": \"s1\", \"actionVerb\": {\"v\": 1}}]}", Plan.class))
                .isEqualTo("'steps[0].actionVerb' is not a string");
        assertThat(reason("{\"steps\": [\"LOOK_UP\"]}", Plan.class)).isEqualTo("'steps[0]' is not an object");
    }

    @Test
    void anEnumOutsideItsValuesListsThem() {
        assertThat(reason("{\"description\": \"Charters a yacht.\", \"risk\": \"HARMLESS\"}", Draft.class))
                .isEqualTo("'risk' \"HARMLESS\" is not one of READ_ONLY, WRITE_LOCAL, DESTRUCTIVE");
        assertThat(reason("{\"description\": \"Charters a yacht.\", \"risk\": {\"level\": 1}}", Draft.class))
                .isEqualTo("'risk' is not one of READ_ONLY, WRITE_LOCAL, DESTRUCTIVE");
    }

    @Test
    void aFieldNotAskedForIsNamedWhenTheMapperRefusesIt() {
        assertThat(reason("{\"description\": \"Returns rates.\", \"verb\": \"GET_RATES\", \"url\": \"x\"}", Advice.class))
                .isEqualTo("the answer has a field that was not asked for: 'url'");
        assertThat(readable("{\"description\": \"Returns rates.\", \"verb\": \"GET_RATES\", \"url\": \"x\"}")).isTrue();
    }

    @Test
    void theParseFailureIsFoundAmongTheCauses() {
        IllegalArgumentException parsing = new IllegalArgumentException("parse");
        assertThat(UnreadableAnswer.cause(new RuntimeException(new IllegalStateException(parsing)),
                IllegalArgumentException.class)).containsSame(parsing);
        assertThat(UnreadableAnswer.cause(new IllegalStateException("status code: 500"), IllegalArgumentException.class))
                .isEmpty();
    }

    private static boolean readable(String answer) {
        try {
            STRICT_TEXT.readValue(answer, Advice.class);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** The reason for {@code answer}, from the failure LangChain4j would throw reading it into {@code type}. */
    private static String reason(String answer, Class<?> type) {
        try {
            JSON.readValue(answer, type);
        } catch (Exception e) {
            return UnreadableAnswer.reason(new IllegalStateException("Failed to parse \"" + answer + "\" into " + type,
                    new RuntimeException(e)));
        }
        throw new AssertionError("readable: " + answer);
    }
}
