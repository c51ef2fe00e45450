package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.PLANNER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.candidateId;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.pending;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.petApi;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.scan;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The review flow end to end: a real OpenAPI source over HTTP, the queue, decisions, Kafka both ways. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class AirlockReviewTest {

    private static final String TEST_KEY = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

    @Test
    void anApprovedToolIsPublishedWithEncryptedSecretsBuiltAndAudited() throws Exception {
        String path = "/review-" + UUID.randomUUID() + "/openapi.yaml";
        serve(path, petApi("Pet Shop", "All pets, newest first"));
        String source = createSource(Map.of("name", "pet shop", "type", "openapi", "url", url(path),
                "intervalSeconds", 3600)).getString("id");

        JsonPath scanned = scan(source);
        assertThat(scanned.getString("status")).isEqualTo("OK");
        assertThat(scanned.getInt("counts.found")).isEqualTo(3);

        JsonPath queue = pending("?source=" + source);
        assertThat(queue.getList("items.operationKey", String.class))
                .containsExactlyInAnyOrder("GET /pets", "POST /pets", "DELETE /pets/{id}");
        assertThat(queue.getList("items.risk", String.class))
                .containsExactlyInAnyOrder("READ_ONLY", "WRITE_REMOTE", "DESTRUCTIVE");
        assertThat(pending("?source=" + source + "&risk=DESTRUCTIVE").getList("items")).hasSize(1);

        String list = candidateId(source, "GET /pets");
        JsonPath details = given().header("X-API-Key", VIEWER).get("/tools/pending/" + list).then().statusCode(200)
                .extract().jsonPath();
        assertThat(details.getString("manifest.verb")).isEqualTo("LIST_PETS");
        assertThat(details.getString("manifest.binding.auth.secretName")).isEqualTo("apiKey");
        assertThat(details.getString("operation.responses.'200'.content.'application/json'.example[0].name"))
                .isEqualTo("Rex");

        // the tool authenticates with the apiKey secret: approving without it is refused
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("policy", Map.of()))
                .post("/tools/pending/" + list + "/approve").then().statusCode(400)
                .body("error", containsString("'apiKey'"));

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader approvals = kafka.reader(Topics.TOOL_APPROVED)) {
            String approvedBody = given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("policy", Map.of("rateLimit", Map.of("perSecond", 2, "burst", 5),
                            "quota", Map.of("perDay", 1000), "allowedCallers", List.of("planner-a"),
                            "secrets", Map.of("apiKey", "s3cr3t-plaintext")), "riskOverride", "WRITE_LOCAL"))
                    .post("/tools/pending/" + list + "/approve").then().statusCode(200)
                    .body("status", equalTo("APPROVED"))
                    .body("risk", equalTo("WRITE_LOCAL"))
                    .body("policy.secretNames", equalTo(List.of("apiKey")))
                    .extract().asString();
            assertThat(approvedBody).doesNotContain("s3cr3t-plaintext").doesNotContain("v1:");

            String toolId = details.getString("toolId");
            List<ConsumerRecord<String, byte[]>> records = approvals.awaitMatching(r -> toolId.equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(records).hasSize(1);
            String raw = new String(records.get(0).value(), StandardCharsets.UTF_8);
            assertThat(raw).doesNotContain("s3cr3t-plaintext");
            EventEnvelope envelope = kafka.codec().openEnvelope(records.get(0).value());
            ToolApproved approved = kafka.codec().payload(envelope, ToolApproved.class);
            assertThat(approved.approvedBy()).isEqualTo("alice");
            assertThat(approved.manifest().risk().name()).isEqualTo("WRITE_LOCAL");
            assertThat(approved.policy().rateLimit().burst()).isEqualTo(5);
            assertThat(approved.operation().path("x-toolsmith-path").asText()).isEqualTo("/pets");
            String sealed = approved.policy().secrets().get("apiKey");
            assertThat(sealed).startsWith("v1:");
            assertThat(AesGcmSecretCipher.fromBase64Key(TEST_KEY).decrypt(sealed)).isEqualTo("s3cr3t-plaintext");

            // decided once: a second decision is a conflict
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("reason", "changed my mind"))
                    .post("/tools/pending/" + list + "/reject").then().statusCode(409);

            // the audit log names who approved, with the secret's name only
            String audit = given().header("X-API-Key", VIEWER).get("/audit?subjectId=" + list).then().statusCode(200)
                    .body("items[0].action", equalTo("APPROVED")).body("items[0].actor", equalTo("alice"))
                    .body("items[0].after.policy.secretNames", equalTo(List.of("apiKey")))
                    .extract().asString();
            assertThat(audit).doesNotContain("s3cr3t-plaintext").doesNotContain("v1:");

            // a failed build puts it back in the queue with its report and tells admins
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, approved.version(), false, null, null,
                    new VerificationReport(false, List.of(new CaseResult("lists pets", "happy-path", false,
                            "expected 200, got 500")), 120), "the stub answered 500 to the happy path", approved.approval()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/tools/pending/" + list).then().statusCode(200)
                    .body("status", equalTo("BUILD_FAILED"))
                    .body("buildFailure", containsString("answered 500"))
                    .body("buildReport.cases[0].detail", equalTo("expected 200, got 500")));
            assertThat(pending("?source=" + source).getList("items.id", String.class)).contains(list);
            given().header("X-API-Key", VIEWER).get("/notifications").then().statusCode(200)
                    .body("items.kind", org.hamcrest.Matchers.hasItem("BUILD_FAILED"));

            // approved again and built: active
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("policy", Map.of("secrets", Map.of("apiKey", "s3cr3t-plaintext"))))
                    .post("/tools/pending/" + list + "/approve").then().statusCode(200);
            // a re-approval is a new build version: the engineer builds each (tool id, version) once
            List<ToolApproved> both = approvals.awaitMatching(r -> toolId.equals(r.key()) && kafka.codec()
                    .payload(kafka.codec().openEnvelope(r.value()), ToolApproved.class).version() == approved.version() + 1,
                    Duration.ofSeconds(20)).stream()
                    .map(r -> kafka.codec().payload(kafka.codec().openEnvelope(r.value()), ToolApproved.class)).toList();
            assertThat(both).hasSize(1);
            ToolApproved again = both.get(0);
            assertThat(again.manifest().version()).isEqualTo(again.version());
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, again.version(), true, again.manifest(),
                    again.policy(), new VerificationReport(true, List.of(), 80), null, again.approval()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/tools/pending/" + list).then().body("status", equalTo("ACTIVE")));

            // a replayed build of the first approval, validly sealed, cannot come back over the later one
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, approved.version(), true,
                    approved.manifest(), approved.policy(), new VerificationReport(true, List.of(), 80), null,
                    approved.approval()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .queryParam("action", "BUILD_REFUSED").queryParam("subjectId", toolId).get("/audit").then()
                    .statusCode(200).body("items[0].summary", containsString("a later approval of " + toolId)));
        }
    }

    @Test
    void rejectionsNeedAReasonAndBulkDecisionsReportEachId() {
        String path = "/bulk-" + UUID.randomUUID() + "/openapi.yaml";
        serve(path, petApi("Bulk Shop", "All pets"));
        String source = createSource(Map.of("name", "bulk shop", "type", "openapi", "url", url(path))).getString("id");
        scan(source);
        String adopt = candidateId(source, "POST /pets");
        String remove = candidateId(source, "DELETE /pets/{id}");

        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("reason", "  "))
                .post("/tools/pending/" + adopt + "/reject").then().statusCode(400)
                .body("error", containsString("reason"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body("{\"policy\": {\"rateLimit\": {\"perSecond\": -1}}}")
                .post("/tools/pending/" + adopt + "/approve").then().statusCode(400)
                .body("pointer", equalTo("/policy/rateLimit/perSecond"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("riskOverride", "HARMLESS"))
                .post("/tools/pending/" + adopt + "/approve").then().statusCode(400)
                .body("error", containsString("riskOverride"));

        String unknown = UUID.randomUUID().toString();
        List<Map<String, Object>> outcomes = given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("ids", List.of(adopt, remove, unknown), "reason", "we do not let agents change pets"))
                .post("/tools/pending/reject").then().statusCode(200).extract().jsonPath().getList("");
        assertThat(outcomes).extracting(o -> o.get("done")).containsExactly(true, true, false);
        assertThat((String) outcomes.get(2).get("error")).contains("no pending tool " + unknown);
        assertThat(pending("?source=" + source + "&status=REJECTED").getList("items")).hasSize(2);
        given().header("X-API-Key", VIEWER).get("/audit?action=REJECTED&subjectId=" + adopt).then().statusCode(200)
                .body("items[0].after.reason", equalTo("we do not let agents change pets"));
    }

    @Test
    void rolesGuardTheAirlock() {
        given().get("/tools/pending").then().statusCode(401);
        given().header("X-API-Key", PLANNER).get("/tools/pending").then().statusCode(403);
        given().header("X-API-Key", PLANNER).get("/tools/sources").then().statusCode(403);
        given().header("X-API-Key", PLANNER).get("/audit").then().statusCode(403);
        given().header("X-API-Key", PLANNER).get("/notifications").then().statusCode(403);
        given().header("X-API-Key", VIEWER).get("/tools/sources").then().statusCode(200);
        given().header("X-API-Key", VIEWER).contentType(ContentType.JSON)
                .body(Map.of("name", "x", "type", "openapi", "url", "https://example.com/openapi.json"))
                .post("/tools/sources").then().statusCode(403);
        given().header("X-API-Key", VIEWER).contentType(ContentType.JSON).body(Map.of("reason", "no"))
                .post("/tools/pending/" + UUID.randomUUID() + "/reject").then().statusCode(403);
    }

    @Test
    void badSourcesAreRefusedNamingTheField() {
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "ftp", "type", "ftp", "url", "ftp://example.com/x"))
                .post("/tools/sources").then().statusCode(400).body("error", containsString("type"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "no url", "type", "openapi"))
                .post("/tools/sources").then().statusCode(400).body("error", equalTo("url: is required"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "local", "type", "openapi", "url", "file:///etc/passwd"))
                .post("/tools/sources").then().statusCode(400).body("error", containsString("http(s)"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "busy", "type", "openapi", "url", "https://example.com/o.json", "intervalSeconds", 5))
                .post("/tools/sources").then().statusCode(400).body("error", containsString("intervalSeconds"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body("{not json")
                .post("/tools/sources").then().statusCode(400);
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + UUID.randomUUID()).then().statusCode(404);
        given().header("X-API-Key", VIEWER).get("/tools/pending?status=MAYBE").then().statusCode(400)
                .body("error", containsString("MAYBE"));
    }

    @Test
    void aChangedApprovedToolGetsANewRevisionWithItsDiffAndIsSuspendedWhenTheSourceSaysSo() throws Exception {
        String path = "/change-" + UUID.randomUUID() + "/openapi.yaml";
        // a tool of its own: other tests approve the pet shop's tool (its id and its verb LIST_PETS), which another
        // source may neither take over unconfirmed nor serve beside it
        java.util.function.UnaryOperator<String> own = doc -> doc.replace("pets.example.com", "changing.example.com")
                .replace("operationId: listPets", "operationId: listChangingPets");
        serve(path, own.apply(petApi("Changing Shop", "All pets")));
        JsonPath created = createSource(Map.of("name", "changing shop", "type", "openapi", "url", url(path),
                "suspendOnChange", false));
        String source = created.getString("id");
        scan(source);
        String list = candidateId(source, "GET /pets");
        String toolId = given().header("X-API-Key", VIEWER).get("/tools/pending/" + list).then().extract()
                .path("toolId");
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("policy", Map.of("secrets", Map.of("apiKey", "k"))))
                .post("/tools/pending/" + list + "/approve").then().statusCode(200);

        // an unchanged rescan files nothing
        assertThat(scan(source).getInt("counts.changed")).isZero();

        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("name", "changing shop", "type", "openapi", "url", url(path), "suspendOnChange", true,
                        "intervalSeconds", 3600))
                .put("/tools/sources/" + source).then().statusCode(200).body("suspendOnChange", equalTo(true));
        serve(path, own.apply(petApi("Changing Shop", "All pets, including the adopted ones")));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader status = kafka.reader(Topics.PLUGIN_STATUS)) {
            JsonPath rescanned = scan(source);
            assertThat(rescanned.getInt("counts.changed")).isEqualTo(1);

            String revised = candidateId(source, "GET /pets");
            assertThat(revised).isNotEqualTo(list);
            JsonPath details = given().header("X-API-Key", VIEWER).get("/tools/pending/" + revised).then()
                    .statusCode(200).extract().jsonPath();
            assertThat(details.getInt("revision")).isEqualTo(2);
            assertThat(details.getString("status")).isEqualTo("PENDING");
            assertThat(details.getInt("approvedRevision")).isEqualTo(1);
            assertThat(details.getList("diff.path", String.class)).contains("/description");
            assertThat(details.getString("diff.find { it.path == '/description' }.after"))
                    .contains("including the adopted ones");
            // the approved revision keeps its status (pinned) while the change waits for review
            given().header("X-API-Key", VIEWER).get("/tools/pending/" + list).then().body("status", equalTo("APPROVED"));

            List<ConsumerRecord<String, byte[]>> suspensions = status.awaitMatching(r -> toolId.equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(suspensions).hasSize(1);
            PluginStatusChanged event = kafka.codec().payload(kafka.codec().openEnvelope(suspensions.get(0).value()),
                    PluginStatusChanged.class);
            assertThat(event.status()).isEqualTo(PluginStatus.DISABLED);
            assertThat(event.reason()).isEqualTo("definition changed, suspended until reviewed");
            given().header("X-API-Key", VIEWER).get("/audit?action=SUSPENDED&subjectId=" + toolId).then()
                    .statusCode(200).body("total", equalTo(1)).body("items[0].actor", equalTo("system"));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/notifications?size=200").then().body("items.findAll { it.kind == 'PLUGIN_DISABLED' }.subjectId",
                            org.hamcrest.Matchers.hasItem(toolId)));
        }
        given().header("X-API-Key", VIEWER).get("/audit?action=SOURCE_UPDATED&subjectId=" + source).then()
                .body("items[0].before.suspendOnChange", equalTo(false))
                .body("items[0].after.suspendOnChange", equalTo(true));
    }
}
