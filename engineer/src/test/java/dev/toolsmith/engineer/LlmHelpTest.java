package dev.toolsmith.engineer;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.llm.WrapperAdvisor;
import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.engineer.wrapper.BuildResult;
import dev.toolsmith.engineer.wrapper.GeneratedWrapper;
import dev.toolsmith.engineer.wrapper.WrapperBuilder;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * LLM help while building a wrapper, with WireMock answering as the LLM (recorded completions under
 * src/test/resources/wiremock/mappings, chosen by a marker in the approved description): a valid
 * description, also in a fence or a sentence, is applied and the wrapper is verified as usual; an answer
 * that is not JSON, has the wrong shape or names a foreign host, or an LLM that fails, keeps the generated
 * description and the notes say why. The request the AI service sends is checked as the endpoint sees it.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_engineer"))
@QuarkusTestResource(LlmAndLibrarianStub.class)
class LlmHelpTest {

    /** The test key (test application.properties). */
    private static final String KEY = "sk-engineer-test-5up3rS3cr3tK3y";

    @Inject
    WrapperAdvisor advisor;

    @Inject
    WrapperBuilder builder;

    @Inject
    ContractCodec codec;

    @Test
    void aValidDescriptionIsAppliedTheVerbBecomesATagAndTheWrapperIsStillVerified() throws Exception {
        ToolApproved approval = approval("exchange rates scenario-advice-good");
        GeneratedWrapper generated = builder.generate(approval);
        GeneratedWrapper helped = advisor.help(approval, generated);

        ToolManifest plugin = helped.plugin();
        assertThat(plugin.description()).startsWith("Returns the latest exchange rates of a base currency")
                .contains("api.fx.example"); // the spec's own server may be named
        assertThat(plugin.verb()).isEqualTo("GET_RATES"); // what the admin approved
        assertThat(plugin.tags()).contains("GET_EXCHANGE_RATES");
        assertThat(plugin.binding()).isEqualTo(generated.plugin().binding());
        assertThat(plugin.contentHash()).isNotEqualTo(generated.plugin().contentHash())
                .isEqualTo(ContentHash.of(plugin, codec.mapper()));
        assertThat(helped.notes()).anySatisfy(n -> assertThat(n).contains("LLM help: used; the description was replaced"))
                .anySatisfy(n -> assertThat(n).contains("GET_EXCHANGE_RATES added as a search tag"));

        BuildResult result = builder.verify(helped, builder.suite(approval, helped));
        assertThat(result.succeeded()).as(result.failureReason()).isTrue();
        assertThat(result.report().passed()).isTrue();
    }

    @Test
    void anAnswerInAFenceWithTheApprovedVerbChangesOnlyTheDescription() throws Exception {
        ToolApproved approval = approval("exchange rates scenario-advice-fenced");
        GeneratedWrapper generated = builder.generate(approval);
        GeneratedWrapper helped = advisor.help(approval, generated);

        assertThat(helped.plugin().description())
                .isEqualTo("Looks up exchange rates for a base currency and a list of target currencies.");
        assertThat(helped.plugin().tags()).isEqualTo(generated.plugin().tags());
        assertThat(helped.notes()).anySatisfy(n -> assertThat(n).contains("the suggested verb is the approved one"));
    }

    @Test
    void anAnswerWithProseAroundItsJsonIsRead() throws Exception {
        ToolApproved approval = approval("exchange rates scenario-advice-prose");
        GeneratedWrapper helped = advisor.help(approval, builder.generate(approval));

        assertThat(helped.plugin().description())
                .isEqualTo("Returns the exchange rates of a base currency against a list of target currencies.");
        assertThat(helped.plugin().tags()).contains("GET_EXCHANGE_RATES");
    }

    @Test
    void aMalformedAnswerKeepsTheOriginalAndSaysWhyWithoutAskingAgain() throws Exception {
        String marker = "scenario-advice-malformed " + UUID.randomUUID();
        assertKept(marker, "the answer is not JSON: Unrecognized token 'Sure'");
        assertAskedTimes(1, marker);
    }

    @Test
    void anAnswerOfTheWrongShapeKeepsTheOriginalAndNamesTheField() throws Exception {
        assertKept("scenario-advice-shape", "'description' is not a string");
        assertKept("scenario-advice-number", "'verb' is not a string"); // 42: Quarkus' mapper does not coerce it
    }

    @Test
    void theRequestCarriesBothPromptsTheFormatInstructionAndTemperatureZero() throws Exception {
        String marker = "scenario-advice-good " + UUID.randomUUID();
        ToolApproved approval = approval("exchange rates " + marker);
        advisor.help(approval, builder.generate(approval));

        List<LoggedRequest> sent = LlmAndLibrarianStub.server().findAll(WireMock.postRequestedFor(
                WireMock.urlPathEqualTo("/v1/chat/completions")).withRequestBody(WireMock.containing(marker)));
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).getHeader("Authorization")).isEqualTo("Bearer " + KEY);
        JsonNode body = codec.mapper().readTree(sent.get(0).getBodyAsString());
        assertThat(body.path("temperature").isNumber()).isTrue();
        assertThat(body.path("temperature").asDouble()).isZero();
        assertThat(body.has("response_format")).isFalse(); // the format is asked for in words, not as a JSON schema
        JsonNode messages = body.path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).path("content").asText())
                .startsWith("You improve the catalog entry of one HTTP API operation")
                .endsWith("Answer with one JSON object and nothing else.");
        String user = messages.get(1).path("content").asText();
        assertThat(messages.get(1).path("role").asText()).isEqualTo("user");
        // the operation's JSON arrives as written: a parameter of the Qute template is not interpreted
        assertThat(user).contains("Verb: GET_RATES").contains("Current description: exchange rates " + marker)
                .contains("Input schema: " + generatedInputSchema(approval));
        // the library's format instruction, with the record's descriptions
        assertThat(user).contains("You must answer strictly in the following JSON format")
                .contains("\"description\": (one paragraph of 20 to 1000 characters")
                .contains("\"verb\": (what the operation does in VERB_CASE, e.g. GET_EXCHANGE_RATES; type: string)");
    }

    @Test
    void aRefusedKeyNeverReachesTheNotesOrTheLog() throws Exception {
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record.getMessage() + " " + java.util.Arrays.toString(record.getParameters())
                        + " " + record.getThrown());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(capture);
        try {
            assertKept("scenario-advice-unauthorized", "the LLM could not be reached");
        } finally {
            root.removeHandler(capture);
        }
        assertThat(logged).anySatisfy(line -> assertThat(line).contains("LLM help for"));
        assertThat(logged).noneSatisfy(line -> assertThat(line).contains(KEY));
    }

    @Test
    void anAnswerNamingAForeignHostKeepsTheOriginalAndSaysWhy() throws Exception {
        assertKept("scenario-advice-foreign", "https://rates.attacker.example/v2/latest");
    }

    @Test
    void anLlmThatFailsKeepsTheOriginalAndSaysWhyAfterTwoTries() throws Exception {
        String marker = "scenario-advice-down " + UUID.randomUUID();
        assertKept(marker, "the LLM could not be reached");
        // the client retries a server error once (max-retries cannot be 0): docs/engineer.md bounds a call by two timeouts
        assertAskedTimes(2, marker);
    }

    @Test
    void theServiceBuildsWithTheHelpAndPublishesTheVerifiedPlugin() {
        String toolId = "fx.example:rates-" + UUID.randomUUID();
        ToolApproved approval = withDescription(EngineerBuildTest.approval(toolId, Map.of("fx_key", "v1:c2VjcmV0")),
                "exchange rates scenario-advice-good");
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader built = kafka.reader(Topics.PLUGIN_BUILT)) {
            kafka.send(Topics.TOOL_APPROVED, toolId, approval);
            List<ConsumerRecord<String, byte[]>> records = built.awaitMatching(r -> toolId.equals(r.key()),
                    Duration.ofSeconds(30));
            EventEnvelope envelope = kafka.codec().openEnvelope(records.get(0).value());
            PluginBuilt event = kafka.codec().payload(envelope, PluginBuilt.class);
            assertThat(event.succeeded()).as(event.failureReason()).isTrue();
            assertThat(event.report().passed()).isTrue();
            assertThat(event.plugin().description()).startsWith("Returns the latest exchange rates");
            assertThat(event.plugin().verb()).isEqualTo("GET_RATES");
        }
        JsonPath page = given().header("X-API-Key", "viewer-key").queryParam("toolId", toolId).get("/builds")
                .then().statusCode(200).extract().jsonPath();
        String id = page.getString("items[0].id");
        List<String> notes = given().header("X-API-Key", "viewer-key").get("/builds/" + id).then().statusCode(200)
                .extract().jsonPath().getList("notes", String.class);
        assertThat(notes).anySatisfy(n -> assertThat(n).startsWith("LLM help: used"));
        LlmAndLibrarianStub.server().verify(WireMock.moreThanOrExactly(1),
                WireMock.postRequestedFor(WireMock.urlPathEqualTo("/v1/chat/completions"))
                        .withRequestBody(WireMock.containing("scenario-advice-good")));
    }

    private String generatedInputSchema(ToolApproved approval) throws Exception {
        return String.valueOf(builder.generate(approval).plugin().inputSchema());
    }

    private void assertKept(String scenario, String reason) throws Exception {
        ToolApproved approval = approval("exchange rates " + scenario);
        GeneratedWrapper generated = builder.generate(approval);
        GeneratedWrapper helped = advisor.help(approval, generated);

        assertThat(helped.plugin()).isEqualTo(generated.plugin());
        assertThat(helped.notes()).anySatisfy(n -> assertThat(n)
                .startsWith("LLM help: not used, the original description is kept").contains(reason));
        assertThat(helped.notes()).allSatisfy(n -> assertThat(n).doesNotContain(KEY).doesNotContain("base64"));
        // and the wrapper is verified as any other
        BuildResult result = builder.verify(helped, builder.suite(approval, helped));
        assertThat(result.succeeded()).as(result.failureReason()).isTrue();
    }

    private static ToolApproved approval(String description) {
        return withDescription(EngineerBuildTest.approval("fx.example:rates-" + UUID.randomUUID(),
                Map.of("fx_key", "v1:c2VjcmV0")), description);
    }

    private static ToolApproved withDescription(ToolApproved a, String description) {
        ToolManifest m = a.manifest();
        ToolManifest changed = new ToolManifest(m.id(), m.verb(), m.name(), description, m.source(), m.namespace(),
                m.domain(), m.tags(), m.inputSchema(), m.outputSchema(), m.risk(), m.binding(), m.healthProbe(),
                m.version(), m.contentHash());
        return new ToolApproved(a.toolId(), a.version(), changed, a.policy(), a.operation(), a.sourceId(), a.approvedBy(),
                a.approvedAt(), a.approval());
    }

    /** The LLM stand-in received {@code times} chat requests carrying {@code marker}. */
    private static void assertAskedTimes(int times, String marker) {
        LlmAndLibrarianStub.server().verify(times, WireMock.postRequestedFor(WireMock.urlPathEqualTo("/v1/chat/completions"))
                .withRequestBody(WireMock.containing(marker)));
    }
}
