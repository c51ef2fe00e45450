package dev.toolsmith.engineer;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.TestApprovals;
import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.LogCapture;
import dev.toolsmith.engineer.jobs.BuildRunner;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The engineer end to end on the real broker and database: an approval on tool-approved becomes a build
 * job, a generated and verified plugin, and a plugin-built event; redeliveries build nothing twice; a
 * failing build carries its reason and can be retried by an admin; a job a crash left half-done is
 * resumed; capability gaps become build requests.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_engineer"))
@QuarkusTestResource(LlmAndLibrarianStub.class)
class EngineerBuildTest {

    private static final String ADMIN = "admin-key";
    private static final String VIEWER = "viewer-key";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anApprovedToolIsBuiltVerifiedAndPublishedOnce() {
        String toolId = "fx.example:rates-" + UUID.randomUUID();
        ToolApproved approval = approval(toolId, Map.of("fx_key", "v1:c2VjcmV0"));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader built = kafka.reader(Topics.PLUGIN_BUILT)) {
            kafka.send(Topics.TOOL_APPROVED, toolId, approval);
            kafka.send(Topics.TOOL_APPROVED, toolId, approval); // the same approval again, as a new event

            List<ConsumerRecord<String, byte[]>> records = built.awaitMatching(r -> toolId.equals(r.key()),
                    Duration.ofSeconds(30));
            assertThat(records).hasSize(1);
            PluginBuilt event = payload(kafka, records.get(0));
            assertThat(event.succeeded()).as(event.failureReason()).isTrue();
            assertThat(event.plugin().binding().timeoutMs()).isEqualTo(5_000);
            assertThat(event.plugin().binding().auth().secretName()).isEqualTo("fx_key");
            assertThat(event.policy().secrets()).containsKey("fx_key");
            assertThat(event.report().cases()).extracting(c -> c.kind())
                    .contains("EXAMPLE", "INVALID_INPUT", "HEALTH_PROBE");
            // the approval's seal travels back unchanged, and it still matches what the engineer built
            // (timeouts set, auth resolved, trailing slash dropped), so the registry will accept this build
            assertThat(event.approval()).isEqualTo(approval.approval());
            assertThat(ApprovalVerifier.fromBase64(TestApprovals.VERIFY_KEY, "test").refusal(event,
                    kafka.codec().mapper())).isEmpty();

            // a redelivery after the build finished builds nothing either
            kafka.send(Topics.TOOL_APPROVED, toolId, approval);
            assertThat(built.pollFor(Duration.ofSeconds(3))).filteredOn(r -> toolId.equals(r.key())).hasSize(1);
        }
        JsonPath page = given().header("X-API-Key", VIEWER).queryParam("toolId", toolId).get("/builds")
                .then().statusCode(200).extract().jsonPath();
        assertThat(page.getInt("total")).isEqualTo(1);
        assertThat(page.getString("items[0].state")).isEqualTo("SUCCEEDED");
        assertThat(page.getBoolean("items[0].report.passed")).isTrue();
        String id = page.getString("items[0].id");

        JsonPath detail = given().header("X-API-Key", VIEWER).get("/builds/" + id).then().statusCode(200)
                .extract().jsonPath();
        assertThat(detail.getList("suite.cases.kind")).contains("EXAMPLE", "REQUIRED_INPUTS", "INVALID_INPUT");
        assertThat(detail.getString("plugin.binding.serverUrl")).isEqualTo("https://api.fx.example/v1");
        assertThat(detail.prettify()).doesNotContain("c2VjcmV0"); // the policy's secret is never shown
    }

    @Test
    void aBuildThatCannotBeGeneratedFailsWithItsReasonAndAnAdminCanRetryIt() {
        String toolId = "fx.example:rates-" + UUID.randomUUID();
        // two secrets, neither named like the binding's: the engineer cannot guess which one fills the key
        ToolApproved approval = approval(toolId, Map.of("a", "v1:YQ==", "b", "v1:Yg=="));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader built = kafka.reader(Topics.PLUGIN_BUILT)) {
            kafka.send(Topics.TOOL_APPROVED, toolId, approval);
            PluginBuilt event = payload(kafka, built.awaitMatching(r -> toolId.equals(r.key()), Duration.ofSeconds(30)).get(0));
            assertThat(event.succeeded()).isFalse();
            assertThat(event.failureReason()).contains("secret 'fx_key'", "add secret 'fx_key' to the policy");
        }
        String id = given().header("X-API-Key", ADMIN).queryParam("toolId", toolId).queryParam("state", "failed")
                .get("/builds").then().statusCode(200).body("total", equalTo(1)).extract().path("items[0].id");

        given().post("/builds/" + id + "/retry").then().statusCode(401);
        given().header("X-API-Key", VIEWER).post("/builds/" + id + "/retry").then().statusCode(403);
        given().header("X-API-Key", ADMIN).post("/builds/" + id + "/retry").then().statusCode(202)
                .body("state", equalTo("RECEIVED"));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", ADMIN)
                .get("/builds/" + id).then().body("state", equalTo("FAILED")).body("attempts", equalTo(2)));
        given().header("X-API-Key", ADMIN).post("/builds/" + id + "/retry").then().statusCode(202);
    }

    @Test
    void aJobACrashLeftHalfDoneIsResumed() throws Exception {
        String toolId = "fx.example:rates-" + UUID.randomUUID();
        ToolApproved approval = approval(toolId, Map.of("fx_key", "v1:c2VjcmV0"));
        UUID id = UUID.randomUUID();
        try (Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_engineer"),
                PostgresTestResource.user(), PostgresTestResource.password());
                PreparedStatement insert = db.prepareStatement("INSERT INTO engineer.build_job (id, tool_id, version, state,"
                        + " approval, attempts, created_at, updated_at) VALUES (?, ?, 1, 'VERIFYING', ?, 1, ?, ?)")) {
            Timestamp longAgo = Timestamp.from(Instant.now().minusSeconds(600));
            insert.setObject(1, id);
            insert.setString(2, toolId);
            insert.setString(3, new KafkaTestClient(KafkaTestResource.bootstrapServers()).codec().mapper()
                    .writeValueAsString(approval));
            insert.setTimestamp(4, longAgo);
            insert.setTimestamp(5, longAgo);
            insert.executeUpdate();
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                .get("/builds/" + id).then().statusCode(200).body("state", equalTo("SUCCEEDED"))
                .body("attempts", equalTo(2)));
    }

    @Test
    void readsNeedACallerAndAClearFilter() {
        given().get("/builds").then().statusCode(401);
        given().header("X-API-Key", "wrong").get("/builds").then().statusCode(401);
        given().header("X-API-Key", VIEWER).queryParam("state", "DONE").get("/builds").then().statusCode(400)
                .body("error", containsString("state must be one of"));
        given().header("X-API-Key", VIEWER).queryParam("size", 500).get("/builds").then().statusCode(400);
        given().header("X-API-Key", VIEWER).get("/builds/" + UUID.randomUUID()).then().statusCode(404);
        given().header("X-API-Key", VIEWER).get("/builds/not-an-id").then().statusCode(404);
    }

    @Test
    void aCapabilityGapBecomesABuildRequestForAdmins() {
        String verb = "reserve table " + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            CapabilityGap gap = new CapabilityGap(verb, "RESERVE_TABLE", "book a table for two",
                    List.of("restaurant", "time"), "step-1", "plan-1", 1, List.of());
            kafka.send(Topics.CAPABILITY_GAPS, verb, gap);
            kafka.send(Topics.CAPABILITY_GAPS, verb, gap);
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonPath page = given().header("X-API-Key", VIEWER).queryParam("size", 100).get("/build-requests")
                    .then().statusCode(200).extract().jsonPath();
            List<Map<String, Object>> matching = page.<Map<String, Object>>getList("items").stream()
                    .filter(item -> verb.equals(item.get("normalizedVerb"))).toList();
            assertThat(matching).hasSize(1);
            assertThat(matching.get(0).get("timesSeen")).isEqualTo(2);
            assertThat(matching.get(0).get("status")).isEqualTo("OPEN");
        });
        given().get("/build-requests").then().statusCode(401);
    }

    @Test
    void aBuildsLogLinesNameTheToolTheVersionAndTheBuild() {
        String toolId = "fx.example:logged-" + UUID.randomUUID();
        try (LogCapture log = LogCapture.of(BuildRunner.class, Level.INFO);
                KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader built = kafka.reader(Topics.PLUGIN_BUILT)) {
            kafka.send(Topics.TOOL_APPROVED, toolId, approval(toolId, Map.of("fx_key", "v1:c2VjcmV0")));
            built.awaitMatching(r -> toolId.equals(r.key()), Duration.ofSeconds(30));
            String buildId = given().header("X-API-Key", VIEWER).queryParam("toolId", toolId).get("/builds")
                    .then().statusCode(200).extract().path("items[0].id");

            // "building …" is logged before the plugin-built event can exist, so it is there by now
            assertThat(log.lines()).filteredOn(line -> line.message().startsWith("building " + toolId + " "))
                    .singleElement()
                    .satisfies(line -> assertThat(line.mdc()).containsEntry("toolId", toolId)
                            .containsEntry("toolVersion", "1").containsEntry("buildId", buildId));
        }
    }

    private static PluginBuilt payload(KafkaTestClient kafka, ConsumerRecord<String, byte[]> record) {
        EventEnvelope envelope = kafka.codec().openEnvelope(record.value());
        return kafka.codec().payload(envelope, PluginBuilt.class);
    }

    /** An approved GET /v1/rates/{base} with an API key, examples in the operation, and a probe. */
    static ToolApproved approval(String toolId, Map<String, String> secrets) {
        JsonNode input = json("{'type':'object','required':['base','symbols'],'properties':{"
                + "'base':{'type':'string','pattern':'^[A-Z]{3}$','examples':['EUR']},"
                + "'symbols':{'type':'array','items':{'type':'string','enum':['USD','GBP']},'minItems':1},"
                + "'amount':{'type':'number','minimum':0,'default':1}}}");
        JsonNode output = json("{'type':'object','required':['base','rates'],'properties':{'base':{'type':'string'},"
                + "'rates':{'type':'object','additionalProperties':{'type':'number'}}}}");
        List<ParameterBinding> parameters = List.of(
                new ParameterBinding("base", "base", ParameterLocation.PATH, "simple", false, true),
                new ParameterBinding("symbols", "symbols", ParameterLocation.QUERY, "form", false, true),
                new ParameterBinding("amount", "amount", ParameterLocation.QUERY, "form", true, false));
        AuthBinding auth = new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "fx_key");
        HttpBinding binding = new HttpBinding("GET", "https://api.fx.example/v1/", "/rates/{base}", parameters,
                BodyEncoding.NONE, auth, 5_000, 0);
        HttpBinding probe = new HttpBinding("GET", "https://api.fx.example/v1", "/status", List.of(), BodyEncoding.NONE,
                auth, 0, 0);
        ToolManifest manifest = new ToolManifest(toolId, "GET_RATES", "get rates", "exchange rates",
                ToolSourceType.OPENAPI, "fx.example", "finance", List.of(), input, output, Risk.READ_ONLY, binding,
                new HealthProbe(probe, Map.of(), 60, null), 1, null);
        JsonNode operation = json("{'operationId':'getRates','responses':{'200':{'content':{'application/json':"
                + "{'example':{'base':'EUR','rates':{'USD':1.08}}}}}}}");
        UsagePolicy policy = new UsagePolicy(null, null, null, List.of(), secrets);
        return new ToolApproved(toolId, 1, manifest, policy, operation, "src-1", "alice", Instant.now(),
                TestApprovals.seal(manifest, policy, 1));
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
