package dev.toolsmith.engineer.gaps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.llm.RejectedAnswerException;
import dev.toolsmith.openapi.CandidateValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an LLM's draft for a capability gap must be before it becomes a manifest for the review queue. The
 * answers are read into {@link DraftAnswer} here by plain Jackson; what the library does with unreadable ones
 * is {@code DraftAnswersTest}'s.
 */
class DraftManifestTest {

    private static final ContractCodec CODEC = new ContractCodec();
    private static final ObjectMapper JSON = CODEC.mapper();
    private static final DraftManifest DRAFTS = new DraftManifest(new CandidateValidator(CODEC.validator(), JSON), JSON);
    private static final List<String> INPUTS = List.of("harbour", "days");

    private static final String INPUT_SCHEMA = "{\"type\": \"object\", \"required\": [\"harbour\"], \"properties\":"
            + " {\"harbour\": {\"type\": \"string\"}, \"days\": {\"type\": \"integer\", \"minimum\": 1}}}";
    private static final String OUTPUT_SCHEMA = "{\"type\": \"object\", \"properties\": {\"price\": {\"type\": \"number\"}}}";

    @Test
    void aValidAnswerBecomesADraftWithoutABindingTaggedWithItsGap() throws Exception {
        ToolManifest draft = DRAFTS.read(answer("Charters a yacht from a harbour for some days.", INPUT_SCHEMA,
                OUTPUT_SCHEMA, "\"WRITE_REMOTE\""), "charterYacht", "charter yacht", INPUTS);

        assertThat(draft.id()).isEqualTo("draft:charter_yacht");
        assertThat(draft.verb()).isEqualTo("CHARTER_YACHT");
        assertThat(draft.namespace()).isEqualTo("draft");
        assertThat(draft.tags()).containsExactly("draft", "gap:charter yacht");
        assertThat(draft.binding()).isNull();
        assertThat(draft.healthProbe().available()).isFalse();
        assertThat(draft.healthProbe().unavailableReason()).contains("no HTTP binding");
        assertThat(draft.risk()).isEqualTo(Risk.WRITE_REMOTE);
        assertThat(draft.contentHash()).isEqualTo(ContentHash.of(draft, JSON));
        assertThat(draft.inputSchema().path("properties").has("days")).isTrue();
    }

    @Test
    void theGapsVerbIsWrittenAsTheCatalogWritesVerbs() {
        assertThat(DraftManifest.verbCase("reserve table")).isEqualTo("RESERVE_TABLE");
        assertThat(DraftManifest.verbCase("getWeatherForecast")).isEqualTo("GET_WEATHER_FORECAST");
        assertThat(DraftManifest.verbCase("  --book a room!  ")).isEqualTo("BOOK_A_ROOM");
        assertThat(DraftManifest.verbCase("3d print")).isEqualTo("DO_3D_PRINT");
        assertThat(DraftManifest.verbCase("x".repeat(150))).hasSize(100);
    }

    @Test
    void theSchemasAreKeptExactlyAsTheLlmWroteThem() throws Exception {
        String input = "{\"type\": \"object\", \"required\": [\"harbour\", \"days\"], \"properties\": {\"harbour\":"
                + " {\"type\": \"string\", \"description\": \"where the charter starts\", \"minLength\": 2}, \"days\":"
                + " {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 28}, \"crew\": {\"type\": \"array\", \"items\":"
                + " {\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\"}}}}}, \"additionalProperties\": false}";
        String output = "{\"type\": \"object\", \"properties\": {\"price\": {\"type\": \"number\", \"multipleOf\": 0.01},"
                + " \"currency\": {\"enum\": [\"EUR\", \"USD\"]}}}";
        ToolManifest draft = DRAFTS.read(answer("Charters a yacht from a harbour for some days.", input, output, "null"),
                "charter yacht", "charter yacht", INPUTS);
        assertThat(draft.inputSchema()).isEqualTo(JSON.readTree(input));
        assertThat(draft.outputSchema()).isEqualTo(JSON.readTree(output));
        assertThat(draft.risk()).isNull();
    }

    @Test
    void everyUnusableAnswerIsRefusedWithItsReason() {
        String description = "Charters a yacht from a harbour for some days.";
        assertRefused("{\"inputSchema\": " + INPUT_SCHEMA + ", \"outputSchema\": " + OUTPUT_SCHEMA + "}",
                "'description' is missing");
        assertRefused(answer("Yacht.", INPUT_SCHEMA, OUTPUT_SCHEMA, "null"), "'description' has 6 characters");
        assertRefused(answer("Charters a yacht through https://yachts.example.com/api for some days.", INPUT_SCHEMA,
                OUTPUT_SCHEMA, "null"), "https://yachts.example.com/api");
        assertRefused(answer(description, "{\"type\": \"object\", \"properties\": {\"harbour\": {\"type\": \"string\"}}}",
                OUTPUT_SCHEMA, "null"), "lacks the gap's inputs [days]");
        assertRefused(answer(description, "[\"harbour\", \"days\"]", OUTPUT_SCHEMA, "null"),
                "'inputSchema' is not an object schema");
        assertRefused(answer(description, "\"object\"", OUTPUT_SCHEMA, "null"), "'inputSchema' is not an object schema");
        assertRefused(answer(description, INPUT_SCHEMA, "null", "null"), "'outputSchema' is not an object schema");
        assertRefused("{\"description\": \"" + description + "\", \"inputSchema\": " + INPUT_SCHEMA + "}",
                "'outputSchema' is not an object schema");
        assertRefused(answer(description, INPUT_SCHEMA, "{\"type\": \"object\", \"properties\": {}}", "null"),
                "declares no output");
        // the schemas are checked against the JSON Schema meta-schema, as any candidate's are
        assertRefused(answer(description, "{\"type\": \"object\", \"properties\": {\"harbour\": {\"type\": \"strung\"},"
                + " \"days\": {\"type\": \"integer\"}}}", OUTPUT_SCHEMA, "null"), "input schema is not valid JSON Schema");
    }

    private static DraftAnswer answer(String description, String input, String output, String risk) {
        return read("{\"description\": \"" + description + "\", \"inputSchema\": " + input + ", \"outputSchema\": "
                + output + ", \"risk\": " + risk + "}");
    }

    private static DraftAnswer read(String answer) {
        try {
            return JSON.readValue(answer, DraftAnswer.class);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void assertRefused(String answer, String reason) {
        assertRefused(read(answer), reason);
    }

    private static void assertRefused(DraftAnswer answer, String reason) {
        assertThatThrownBy(() -> DRAFTS.read(answer, "charter yacht", "charter yacht", INPUTS))
                .isInstanceOf(RejectedAnswerException.class).hasMessageContaining(reason);
    }
}
