package dev.toolsmith.librarian.catalog;

import static dev.toolsmith.librarian.TestTools.ADMIN_KEY;
import static dev.toolsmith.librarian.TestTools.VIEWER_KEY;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, finding 1 on the catalog's side: what a forged event can no longer do. A build without the
 * seal of its approval is not catalogued (and the refusal is audited), an external tool cannot pose as
 * an internal plugin on {@code internal-plugins}, and alerts other services raise reach the inbox.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class CatalogGateTest {

    private static final VerificationReport PASSED = new VerificationReport(true, List.of(), 3);

    @Test
    void aBuildWithoutItsApprovalsSealIsNotCataloguedAndTheRefusalIsAudited() {
        String forged = "gate.forged-" + UUID.randomUUID().toString().substring(0, 8);
        ToolManifest tool = TestTools.external(TestTools.currency(forged));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_BUILT, forged, new PluginBuilt(forged, 1, true, tool, null, PASSED, null, null));
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonPath audit = given().header("X-API-Key", VIEWER_KEY).queryParam("action", "BUILD_REFUSED")
                    .queryParam("subjectId", forged).get("/audit").then().statusCode(200).extract().jsonPath();
            assertThat(audit.getList("items.summary", String.class)).singleElement().asString()
                    .contains("carries no approval seal").contains("plugin-built event");
        });
        given().header("X-API-Key", VIEWER_KEY).get("/tools/" + forged).then().statusCode(404);

        // the same tool with its approval's seal is catalogued: the gate is the seal, not the tool
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_BUILT, forged, TestApprovals.built(tool, UsagePolicy.unrestricted(), 1, PASSED));
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/" + forged).then().statusCode(200));
    }

    @Test
    void onlyInternalPluginsWithoutAnHttpBindingEnterThroughInternalPlugins() {
        String internal = "gate.internal-" + UUID.randomUUID().toString().substring(0, 8);
        String posing = "gate.posing-" + UUID.randomUUID().toString().substring(0, 8);
        ToolManifest external = TestTools.external(TestTools.weather(posing));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.INTERNAL_PLUGINS))) {
            kafka.send(Topics.INTERNAL_PLUGINS, posing, new PluginBuilt(posing, 1, true, external, null, PASSED, null,
                    null));
            kafka.send(Topics.INTERNAL_PLUGINS, internal, new PluginBuilt(internal, 1, true,
                    TestTools.weather(internal), null, PASSED, null, null));
            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(r -> posing.equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(dead).hasSize(1);
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason"))
                    .contains("enters the catalog only through approval");
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/" + internal).then().statusCode(200).body("manifest.source", equalTo("internal")));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/" + posing).then().statusCode(404);
    }

    @Test
    void alertsOfOtherServicesReachTheInboxOnce() {
        String subject = "gate.budget-" + UUID.randomUUID().toString().substring(0, 8);
        Notification alert = new Notification(UUID.randomUUID().toString(), Notification.Kind.BUDGET_SOFT_LIMIT,
                Notification.Severity.WARNING, "Budget of " + subject + " at 80%", "8.00 of 10.00 EUR spent", subject,
                Instant.now());
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.NOTIFICATIONS, alert.id(), alert);
            kafka.send(Topics.NOTIFICATIONS, alert.id(), alert); // published again (at-least-once): shown once
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonPath inbox = given().header("X-API-Key", ADMIN_KEY).queryParam("size", 200).get("/notifications")
                    .then().statusCode(200).extract().jsonPath();
            assertThat(inbox.getList("items.findAll { it.subjectId == '" + subject + "' }.kind", String.class))
                    .containsExactly("BUDGET_SOFT_LIMIT");
        });
    }
}
