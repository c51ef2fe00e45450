package dev.toolsmith.librarian.catalog;

import static dev.toolsmith.librarian.TestTools.PLANNER_B_KEY;
import static dev.toolsmith.librarian.TestTools.PLANNER_KEY;
import static dev.toolsmith.librarian.TestTools.VIEWER_KEY;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** plugin-built indexes, plugin-status hides and shows, malformed events go to the dead-letter topics. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class CatalogEventsTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private KafkaTestClient kafka;

    @BeforeEach
    void connect() {
        kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
    }

    @AfterEach
    void disconnect() {
        kafka.close();
    }

    @Test
    void aBuiltPluginIsIndexedOnceWithItsPolicysCallersAndANewVersionWhenItChanges() {
        ToolManifest plugin = TestTools.tool("ev.stock", "GET_STOCK_QUOTE", "Stock quote",
                "Returns the latest trading price of a company's shares on the stock exchange.", "markets", "stocks",
                Risk.READ_ONLY, "ticker");
        EventEnvelope built = kafka.send(Topics.PLUGIN_BUILT, plugin.id(), built(plugin, List.of("planner-b")));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/ev.stock").then().statusCode(200).body("version", equalTo(1))
                .body("allowedCallers", contains("planner-b")));
        // Searchable by the caller the policy names, and only by it.
        ObjectNode query = JSON.objectNode().put("queryText", "how is Apple trading today").put("limit", 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> search(PLANNER_B_KEY, query)
                .body("[0].toolId", equalTo("ev.stock")));
        List<String> seenByA = given().header("X-API-Key", PLANNER_KEY).contentType(ContentType.JSON)
                .body(query.toString()).post("/tools/search").then().statusCode(200).extract().jsonPath()
                .getList("toolId");
        assertThat(seenByA).doesNotContain("ev.stock");

        // The same event again (a redelivery) and a rebuild with the same content change nothing.
        kafka.send(Topics.PLUGIN_BUILT, plugin.id(), built);
        kafka.send(Topics.PLUGIN_BUILT, plugin.id(), built(plugin, List.of("planner-b")));
        ToolManifest changed = TestTools.tool("ev.stock", "GET_STOCK_QUOTE", "Stock quote",
                "Returns the latest price and the day's change of a company's shares.", "markets", "stocks",
                Risk.READ_ONLY, "ticker", "exchange");
        kafka.send(Topics.PLUGIN_BUILT, plugin.id(), built(changed, List.of()));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/ev.stock").then().statusCode(200).body("version", equalTo(2))
                .body("versions.version", contains(1, 2)).body("allowedCallers.size()", equalTo(0)));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> search(PLANNER_KEY, query)
                .body("[0].toolId", equalTo("ev.stock")));

        // A failed build changes nothing in the catalog.
        kafka.send(Topics.PLUGIN_BUILT, "ev.failed", new PluginBuilt("ev.failed", 1, false, null, null, null,
                "verification failed: 2 of 5 cases", null));
        kafka.send(Topics.PLUGIN_BUILT, "ev.marker", built(TestTools.table("ev.marker"), List.of()));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/ev.marker").then().statusCode(200));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/ev.failed").then().statusCode(404);
    }

    @Test
    void aDisabledPluginDisappearsFromSearchAndComesBackWhenEnabled() {
        ToolManifest tool = TestTools.tool("ev.parcel", "TRACK_PARCEL", "Parcel tracking",
                "Tells where a parcel is and when it will be delivered, from its tracking number.", "logistics",
                "parcels", Risk.READ_ONLY, "tracking_number");
        kafka.send(Topics.PLUGIN_BUILT, tool.id(), built(tool, List.of()));
        ObjectNode query = JSON.objectNode().put("queryText", "where is my package").put("limit", 3);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> search(PLANNER_KEY, query)
                .body("[0].toolId", equalTo("ev.parcel")));

        kafka.send(Topics.PLUGIN_STATUS, tool.id(), status(tool.id(), PluginStatus.DISABLED));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            List<String> ids = search(PLANNER_KEY, query).extract().jsonPath().getList("toolId");
            assertThat(ids).doesNotContain("ev.parcel");
        });
        given().header("X-API-Key", VIEWER_KEY).get("/tools/ev.parcel").then().body("status", equalTo("disabled"));

        // Degraded still works: it stays hidden only while disabled, and comes back when enabled.
        kafka.send(Topics.PLUGIN_STATUS, tool.id(), status(tool.id(), PluginStatus.DEGRADED));
        kafka.send(Topics.PLUGIN_STATUS, tool.id(), status(tool.id(), PluginStatus.ENABLED));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> search(PLANNER_KEY, query)
                .body("[0].toolId", equalTo("ev.parcel")));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/ev.parcel").then().body("status", equalTo("active"));
    }

    @Test
    void malformedEventsGoToTheDeadLetterTopicsAndTheConsumersKeepGoing() {
        ObjectNode noPlugin = (ObjectNode) kafka.codec().toJson(built(TestTools.email("ev.dlq"), List.of()));
        noPlugin.remove("plugin");
        EventEnvelope invalid = kafka.codec().envelope(built(TestTools.email("ev.dlq"), List.of()), "/test", "ev.dlq");
        invalid = new EventEnvelope(invalid.specversion(), invalid.id(), invalid.type(), invalid.source(),
                invalid.time(), invalid.subject(), invalid.datacontenttype(), noPlugin);
        kafka.send(Topics.PLUGIN_BUILT, "ev.dlq", invalid);
        kafka.sendRaw(Topics.PLUGIN_STATUS, "ev.dlq", "not an event".getBytes(StandardCharsets.UTF_8));
        kafka.sendRaw(Topics.TOOL_CATALOG, "ev.dlq", "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8));

        try (KafkaTestClient.Reader built = kafka.reader(Topics.deadLetter(Topics.PLUGIN_BUILT));
                KafkaTestClient.Reader status = kafka.reader(Topics.deadLetter(Topics.PLUGIN_STATUS));
                KafkaTestClient.Reader catalog = kafka.reader(Topics.deadLetter(Topics.TOOL_CATALOG))) {
            assertThat(built.awaitMatching(r -> "ev.dlq".equals(r.key()), Duration.ofSeconds(20))).isNotEmpty();
            assertThat(status.awaitMatching(r -> "ev.dlq".equals(r.key()), Duration.ofSeconds(20))).isNotEmpty();
            assertThat(catalog.awaitMatching(r -> "ev.dlq".equals(r.key()), Duration.ofSeconds(20))).isNotEmpty();
        }
        // Still consuming after the bad ones.
        kafka.send(Topics.PLUGIN_BUILT, "ev.after-dlq", built(TestTools.currency("ev.after-dlq"), List.of()));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/ev.after-dlq").then().statusCode(200));
    }

    @Test
    void anEventMarkedAsCloudEventsJsonLikeTheOutboxRelaySendsIsReadToo() throws Exception {
        ToolManifest tool = TestTools.tool("ev.relayed", "CHECK_TRAIN_DELAYS", "Train delays",
                "Tells whether a train is late and by how much.", "rail", "delays", Risk.READ_ONLY, "train_number");
        byte[] value = kafka.codec().serialize(kafka.codec().envelope(built(tool, List.of()), "/engineer", tool.id()));
        java.util.Properties props = new java.util.Properties();
        props.put("bootstrap.servers", KafkaTestResource.bootstrapServers());
        props.put("key.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName());
        props.put("value.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, byte[]>(props)) {
            var record = new org.apache.kafka.clients.producer.ProducerRecord<>(Topics.PLUGIN_BUILT, tool.id(), value);
            record.headers().add("content-type",
                    "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
            producer.send(record).get();
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/ev.relayed").then().statusCode(200));
    }

    static PluginBuilt built(ToolManifest plugin, List<String> callers) {
        return TestApprovals.built(plugin, new UsagePolicy(null, null, null, callers, null), 1,
                new VerificationReport(true, List.of(new CaseResult("example", "EXAMPLE", true, "200 OK")), 12));
    }

    private static PluginStatusChanged status(String toolId, PluginStatus status) {
        return new PluginStatusChanged(toolId, status, "test", "health-worker", Instant.now());
    }

    private static io.restassured.response.ValidatableResponse search(String key, ObjectNode body) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON).body(body.toString())
                .post("/tools/search").then().statusCode(200);
    }
}
