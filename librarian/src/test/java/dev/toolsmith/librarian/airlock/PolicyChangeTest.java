package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.PLANNER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.candidateId;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.petApi;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.scan;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.contracts.airlock.ApprovalFingerprints;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Changing the policy of a tool in service: a new approval version of the same definition, sealed with the
 * librarian's key and published on tool-approved, audited as POLICY_CHANGED with who and before → after.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class PolicyChangeTest {

    @Test
    void anAdminChangesTheSealedPolicyOfAnActiveToolAndTheChangeIsAudited() throws Exception {
        String path = "/policy-change-" + UUID.randomUUID() + "/openapi.yaml";
        // a host and verbs of its own: other tests approve the pet shop's tools, which would collide
        String tag = UUID.randomUUID().toString().substring(0, 8);
        serve(path, petApi("Policy Shop", "All pets").replace("pets.example.com", "policy-" + tag + ".example.com")
                .replace("operationId: listPets", "operationId: listPolicyPets" + tag.replaceAll("[^a-f]", "")));
        String source = createSource(Map.of("name", "policy shop " + UUID.randomUUID(), "type", "openapi",
                "url", url(path))).getString("id");
        scan(source);
        String list = candidateId(source, "GET /pets");
        String toolId = given().header("X-API-Key", VIEWER).get("/tools/pending/" + list).then().statusCode(200)
                .extract().path("toolId");

        // a change without a policy is refused, never read as "no limits"
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body("{}")
                .put("/tools/pending/" + list + "/policy").then().statusCode(400)
                .body("pointer", equalTo("/policy")).body("error", containsString("required"));

        // a pending tool has no policy to change yet: it gets one when approved
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("policy", Map.of("quota", Map.of("perDay", 5))))
                .put("/tools/pending/" + list + "/policy").then().statusCode(409)
                .body("error", containsString("only an APPROVED or ACTIVE tool's policy can be changed"));

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader approvals = kafka.reader(Topics.TOOL_APPROVED)) {
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("policy", Map.of("quota", Map.of("perDay", 1000), "allowedCallers", List.of("planner-a"),
                            "secrets", Map.of("apiKey", "first-key"))))
                    .post("/tools/pending/" + list + "/approve").then().statusCode(200);
            ToolApproved first = approved(kafka, approvals, toolId, null);
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, first.version(), true, first.manifest(),
                    first.policy(), new VerificationReport(true, List.of(), 50), null, first.approval()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/tools/pending/" + list).then().body("status", equalTo("ACTIVE")));

            // viewers and planners may not change it
            Map<String, Object> lower = Map.of("policy", Map.of("quota", Map.of("perDay", 3),
                    "allowedCallers", List.of("planner-a", "planner-b")));
            given().header("X-API-Key", VIEWER).contentType(ContentType.JSON).body(lower)
                    .put("/tools/pending/" + list + "/policy").then().statusCode(403);
            given().header("X-API-Key", PLANNER).contentType(ContentType.JSON).body(lower)
                    .put("/tools/pending/" + list + "/policy").then().statusCode(403);
            // the approve dialog's rules hold: each breach names its field
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("policy", Map.of("quota", Map.of("perDay", 10, "perMonth", 5))))
                    .put("/tools/pending/" + list + "/policy").then().statusCode(400)
                    .body("pointer", equalTo("/policy/quota/perMonth"));
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body("{\"policy\": {\"rateLimit\": {\"perSecond\": -1}}}")
                    .put("/tools/pending/" + list + "/policy").then().statusCode(400)
                    .body("pointer", equalTo("/policy/rateLimit/perSecond"));
            // the tool authenticates with apiKey: secrets that leave it out are refused
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("policy", Map.of("quota", Map.of("perDay", 3), "secrets", Map.of("other", "x"))))
                    .put("/tools/pending/" + list + "/policy").then().statusCode(400)
                    .body("error", containsString("'apiKey'"));

            // an admin lowers the quota; secrets left out are kept
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(lower)
                    .put("/tools/pending/" + list + "/policy").then().statusCode(200)
                    .body("status", equalTo("ACTIVE"))
                    .body("policy.quota.perDay", equalTo(3))
                    .body("policy.secretNames", equalTo(List.of("apiKey")));
            ToolApproved changed = approved(kafka, approvals, toolId, first.version() + 1);
            assertThat(changed.manifest().verb()).isEqualTo(first.manifest().verb());
            assertThat(changed.policy().quota().perDay()).isEqualTo(3L);
            assertThat(changed.policy().secrets()).isEqualTo(first.policy().secrets());
            assertThat(changed.approvedBy()).isEqualTo("alice");
            // sealed with the librarian's key for this call and this policy, like an approval
            ApprovalVerifier verifier = ApprovalVerifier.fromBase64(ConfigProvider.getConfig()
                    .getValue("toolsmith.approvals.verify-key", String.class), "verify key");
            assertThat(verifier.signatureValid(changed.approval())).isTrue();
            assertThat(changed.approval().version()).isEqualTo(changed.version());
            assertThat(changed.approval().callHash()).isEqualTo(first.approval().callHash());
            assertThat(changed.approval().policyHash())
                    .isEqualTo(ApprovalFingerprints.policy(changed.policy(), kafka.codec().mapper()))
                    .isNotEqualTo(first.approval().policyHash());

            // audited with who and before → after (secret names only)
            String audit = given().header("X-API-Key", VIEWER).queryParam("action", "POLICY_CHANGED")
                    .queryParam("subjectId", toolId).get("/audit").then().statusCode(200)
                    .body("items[0].actor", equalTo("alice"))
                    .body("items[0].before.policy.quota.perDay", equalTo(1000))
                    .body("items[0].after.policy.quota.perDay", equalTo(3))
                    .body("items[0].after.policy.allowedCallers", equalTo(List.of("planner-a", "planner-b")))
                    .body("items[0].after.policy.secretNames", equalTo(List.of("apiKey")))
                    .body("items[0].before.approvalVersion", equalTo(first.version()))
                    .body("items[0].after.approvalVersion", equalTo(changed.version()))
                    .extract().asString();
            assertThat(audit).doesNotContain("first-key").doesNotContain("v1:");

            // the same policy again changes nothing
            given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(lower)
                    .put("/tools/pending/" + list + "/policy").then().statusCode(409)
                    .body("error", containsString("already this one"));

            // the build of the change lands: still ACTIVE, and the older approval's build is now a replay
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, changed.version(), true,
                    changed.manifest(), changed.policy(), new VerificationReport(true, List.of(), 50), null,
                    changed.approval()));
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, first.version(), true, first.manifest(),
                    first.policy(), new VerificationReport(true, List.of(), 50), null, first.approval()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .queryParam("action", "BUILD_REFUSED").queryParam("subjectId", toolId).get("/audit").then()
                    .statusCode(200).body("items[0].summary", containsString("a later approval of " + toolId)));
            given().header("X-API-Key", VIEWER).get("/tools/pending/" + list).then()
                    .body("status", equalTo("ACTIVE")).body("policy.quota.perDay", equalTo(3));
        }
    }

    private static ToolApproved approved(KafkaTestClient kafka, KafkaTestClient.Reader approvals, String toolId,
            Integer version) {
        return approvals.awaitMatching(r -> toolId.equals(r.key()) && (version == null || kafka.codec()
                .payload(kafka.codec().openEnvelope(r.value()), ToolApproved.class).version() == version),
                Duration.ofSeconds(20)).stream()
                .map(r -> kafka.codec().payload(kafka.codec().openEnvelope(r.value()), ToolApproved.class))
                .reduce((a, b) -> b).orElseThrow();
    }
}
