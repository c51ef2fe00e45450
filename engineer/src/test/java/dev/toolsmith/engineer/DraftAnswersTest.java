package dev.toolsmith.engineer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.gaps.ManifestDrafter;
import dev.toolsmith.engineer.llm.RejectedAnswerException;
import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The draft AI service against WireMock as the LLM (recorded completions chosen by the gap's verb): what the
 * request says, how the library reads the answer (schemas kept as written, a fence and prose tolerated), and
 * that an answer it cannot read is a refusal naming the problem. {@code FindOrBuildDraftsTest} covers the
 * worker and the delivery around it.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_engineer"))
@QuarkusTestResource(LlmAndLibrarianStub.class)
class DraftAnswersTest {

    /** The schemas of the recorded answer in draft-charter-yacht.json. */
    private static final String RECORDED_INPUT = "{\"type\": \"object\", \"required\": [\"harbour\", \"days\"], \"properties\":"
            + " {\"harbour\": {\"type\": \"string\", \"description\": \"where the charter starts\"}, \"days\": {\"type\":"
            + " \"integer\", \"minimum\": 1}}}";
    private static final String RECORDED_OUTPUT = "{\"type\": \"object\", \"properties\": {\"bookingReference\":"
            + " {\"type\": \"string\"}, \"price\": {\"type\": \"number\"}}}";

    @Inject
    ManifestDrafter drafter;

    @Inject
    ContractCodec codec;

    @Test
    void theSchemasOfTheAnswerBecomeTheDraftsExactly() throws Exception {
        ToolManifest draft = drafter.draft("CHARTER_YACHT", "charter yacht", "a yacht", List.of("harbour", "days"));

        assertThat(draft.inputSchema()).isEqualTo(codec.mapper().readTree(RECORDED_INPUT));
        assertThat(draft.outputSchema()).isEqualTo(codec.mapper().readTree(RECORDED_OUTPUT));
        assertThat(draft.risk()).isEqualTo(Risk.WRITE_REMOTE);
        assertThat(draft.description()).startsWith("Charters a yacht with a skipper");
    }

    @Test
    void theRequestCarriesBothPromptsTheFormatInstructionAndTemperatureZero() throws Exception {
        String marker = UUID.randomUUID().toString();
        // what the planner wrote arrives as written, braces and quotes included (Qute does not interpret a parameter)
        String wanted = "a yacht {for} the {\"weekend\": \"" + marker + "\"} <b>&amp;</b>";
        drafter.draft("CHARTER_YACHT", "charter yacht", wanted, List.of("harbour", "days"));

        List<LoggedRequest> sent = LlmAndLibrarianStub.server().findAll(WireMock.postRequestedFor(
                WireMock.urlPathEqualTo("/v1/chat/completions")).withRequestBody(WireMock.containing(marker)));
        assertThat(sent).hasSize(1);
        JsonNode body = codec.mapper().readTree(sent.get(0).getBodyAsString());
        assertThat(body.path("temperature").isNumber()).isTrue();
        assertThat(body.path("temperature").asDouble()).isZero();
        assertThat(body.has("response_format")).isFalse();
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).path("content").asText())
                .startsWith("Planners asked for a capability no tool offers.")
                .endsWith("Answer with one JSON object and nothing else.");
        String user = messages.get(1).path("content").asText();
        assertThat(user).startsWith("Missing capability: CHARTER_YACHT\nWhat the planner wanted: " + wanted + "\n"
                + "Inputs the planner gives: harbour, days");
        assertThat(user).contains("You must answer strictly in the following JSON format")
                .contains("\"inputSchema\": (a JSON Schema of \"type\": \"object\" whose \"properties\" hold every input")
                .contains("\"outputSchema\": (a JSON Schema of \"type\": \"object\"")
                .contains("must be one of [READ_ONLY, WRITE_LOCAL, WRITE_REMOTE, DESTRUCTIVE]")
                .doesNotContain("_children");
    }

    @Test
    void anAnswerInAFenceWithProseAroundItIsRead() throws Exception {
        ToolManifest draft = drafter.draft("RENT_BIKE", "rent bike", "a bike for the afternoon", List.of("station"));

        assertThat(draft.verb()).isEqualTo("RENT_BIKE");
        assertThat(draft.description()).startsWith("Rents a bike at a station");
        assertThat(draft.inputSchema().path("properties").has("hours")).isTrue();
        assertThat(draft.risk()).isEqualTo(Risk.WRITE_REMOTE);
    }

    @Test
    void anAnswerTheLibraryCannotReadIsARefusalNamingTheProblem() {
        assertThatThrownBy(() -> drafter.draft("FORECAST_TIDES", "forecast tides", "tides", List.of("harbour")))
                .isInstanceOf(RejectedAnswerException.class)
                .hasMessageStartingWith("the answer is not JSON: Unexpected end-of-input").hasMessageNotContaining("base64");
        assertThatThrownBy(() -> drafter.draft("BOOK_FERRY", "book ferry", "a ferry", List.of("from")))
                .isInstanceOf(RejectedAnswerException.class)
                .hasMessage("'risk' \"HARMLESS\" is not one of READ_ONLY, WRITE_LOCAL, WRITE_REMOTE, DESTRUCTIVE");
    }
}
