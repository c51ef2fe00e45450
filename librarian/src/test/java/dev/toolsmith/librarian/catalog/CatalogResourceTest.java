package dev.toolsmith.librarian.catalog;

import static dev.toolsmith.librarian.TestTools.ADMIN_KEY;
import static dev.toolsmith.librarian.TestTools.PLANNER_KEY;
import static dev.toolsmith.librarian.TestTools.SERVICE_KEY;
import static dev.toolsmith.librarian.TestTools.VIEWER_KEY;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.search.ToolVectors;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The catalog on the real PostgreSQL and Kafka: versioning, paging, and the one way in (no write endpoint;
 * tools are seeded here through the code the plugin-built listener uses), retiring as an admin's audited
 * decision, and an audit entry for every change.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class CatalogResourceTest {

    private final ContractCodec codec = new ContractCodec();

    @Inject
    CatalogSeeder seeder;

    @Test
    void anotherHashMakesANewVersionTheSameHashChangesNothingAndEachIsAudited() throws Exception {
        ToolManifest v1 = TestTools.weather("cat.weather");
        IndexOutcome first = seeder.seed(v1);
        assertThat(first.newVersion()).isTrue();
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.status()).isEqualTo("active");
        // A caller's version and hash are ignored: the catalog numbers versions and hashes content itself.
        IndexOutcome same = seeder.seed(v1.withVersion(7, "sha256:made-up"));
        assertThat(same.newVersion()).isFalse();
        assertThat(same.version()).isEqualTo(1);

        ToolManifest changed = TestTools.tool("cat.weather", "GET_WEATHER_FORECAST", "Weather forecast",
                "Hourly weather forecast for a city, up to ten days ahead.", "weather", "forecast", Risk.READ_ONLY,
                "city", "date", "hours");
        assertThat(seeder.seed(changed).version()).isEqualTo(2);

        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.weather").then().statusCode(200)
                .body("version", equalTo(2)).body("status", equalTo("active"))
                .body("manifest.description", containsString("Hourly"))
                .body("manifest.version", equalTo(2))
                .body("manifest.contentHash", startsWith("sha256-jcs:"))
                .body("versions.version", contains(1, 2));
        // Two versions, two audit entries naming who catalogued them; the unchanged one wrote none.
        given().header("X-API-Key", VIEWER_KEY).queryParam("subjectId", "cat.weather").queryParam("action", "CATALOGED")
                .get("/audit").then().statusCode(200).body("total", equalTo(2))
                .body("items.actor", contains(CatalogSeeder.SEEDER.name(), CatalogSeeder.SEEDER.name()))
                .body("items[0].summary", containsString("version 2"));

        // Each version keeps the vectors made for it, from the running model, so start-up does not embed again.
        try (Connection db = database(); PreparedStatement select = db.prepareStatement(
                "SELECT version, vector_model, vectors FROM librarian.catalog_tool_version WHERE tool_id = ? ORDER BY version")) {
            select.setString(1, "cat.weather");
            try (ResultSet rows = select.executeQuery()) {
                int seen = 0;
                while (rows.next()) {
                    seen++;
                    ToolVectors vectors = ToolVectors.fromBytes(rows.getBytes(3));
                    assertThat(vectors.modelId()).isEqualTo(rows.getString(2));
                    assertThat(vectors.tool()).isNotEmpty();
                }
                assertThat(seen).isEqualTo(2);
            }
        }

        // Both versions went to tool-catalog, in order, keyed by tool id, with their vectors.
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.TOOL_CATALOG)) {
            List<CatalogEntry> entries = reader.awaitMatching(r -> "cat.weather".equals(r.key()) && r.value() != null
                    && entry(r).version() == 2, Duration.ofSeconds(20)).stream().map(this::entry).toList();
            assertThat(entries).isNotEmpty();
            CatalogEntry latest = entries.get(entries.size() - 1);
            assertThat(latest.manifest().description()).contains("Hourly");
            assertThat(latest.vectors()).isNotBlank();
            List<Integer> versions = reader.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> "cat.weather".equals(r.key())).map(r -> entry(r).version()).toList();
            assertThat(versions).containsExactly(1, 2);
        }
        // This replica's topic consumer read the relay's records (CloudEvents content type and all) without a
        // failure: none of them went to the dead-letter topic.
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.TOOL_CATALOG))) {
            assertThat(dlq.pollFor(Duration.ofSeconds(2))).noneMatch(r -> "cat.weather".equals(r.key()));
        }
    }

    @Test
    void concurrentFirstIndexingsOfOneToolMakeOneVersion() throws Exception {
        ToolManifest tool = TestTools.currency("cat.concurrent");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<IndexOutcome>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> seeder.seed(tool)));
            }
            List<Boolean> newVersions = new ArrayList<>();
            for (var call : calls) {
                newVersions.add(call.get().newVersion());
            }
            assertThat(newVersions).filteredOn(Boolean::booleanValue).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.concurrent").then().statusCode(200)
                .body("versions.version", contains(1));
    }

    /**
     * Issue 18, finding 2: {@code POST /tools/index} with the admin or the service key made any manifest
     * active and searchable, and the service key could delete tools, without an audit entry.
     */
    @Test
    void noKeyWritesTheCatalogPastReview() {
        String body = codec.toJson(TestTools.external(TestTools.table("cat.bypass"))).toString();
        for (String key : List.of(ADMIN_KEY, SERVICE_KEY)) {
            int status = given().header("X-API-Key", key).contentType(ContentType.JSON).body(body)
                    .post("/tools/index").then().extract().statusCode();
            assertThat(status).as("POST /tools/index with " + key).isIn(404, 405);
        }
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.bypass").then().statusCode(404);
        given().header("X-API-Key", VIEWER_KEY).queryParam("subjectId", "cat.bypass").get("/audit").then()
                .statusCode(200).body("total", equalTo(0));

        seeder.seed(TestTools.external(TestTools.table("cat.kept")));
        given().header("X-API-Key", SERVICE_KEY).queryParam("reason", "a service cleaning up")
                .delete("/tools/cat.kept").then().statusCode(403);
        given().header("X-API-Key", ADMIN_KEY).delete("/tools/cat.kept").then().statusCode(400)
                .body("error", containsString("reason"));
        given().header("X-API-Key", ADMIN_KEY).queryParam("reason", " ").delete("/tools/cat.kept").then()
                .statusCode(400).body("error", containsString("reason"));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.kept").then().statusCode(200);
    }

    @Test
    void retiringIsAnAdminsAuditedDecisionThatAlsoStopsThePlugin() {
        String id = "cat.flight/v-slash";
        seeder.seed(TestTools.external(TestTools.flight(id)));
        seeder.seed(TestTools.external(TestTools.tool(id, "BOOK_FLIGHT", "Flight booking",
                "Books flights, now with seats.", "travel", "flights", Risk.WRITE_REMOTE, "origin", "destination",
                "seat")));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/" + id).then().statusCode(200).body("version", equalTo(2));

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader catalog = kafka.reader(Topics.TOOL_CATALOG);
                KafkaTestClient.Reader statuses = kafka.reader(Topics.PLUGIN_STATUS)) {
            given().header("X-API-Key", VIEWER_KEY).queryParam("reason", "x").delete("/tools/" + id).then()
                    .statusCode(403);
            given().header("X-API-Key", ADMIN_KEY).queryParam("reason", "the airline closed its API")
                    .delete("/tools/" + id).then().statusCode(204);
            given().header("X-API-Key", VIEWER_KEY).get("/tools/" + id).then().statusCode(404)
                    .body("error", containsString(id));
            given().header("X-API-Key", ADMIN_KEY).queryParam("reason", "again").delete("/tools/" + id).then()
                    .statusCode(404);

            JsonPath audit = given().header("X-API-Key", VIEWER_KEY).queryParam("subjectId", id)
                    .queryParam("action", "RETIRED").get("/audit").then().statusCode(200).extract().jsonPath();
            assertThat(audit.getList("items")).hasSize(1);
            assertThat(audit.getString("items[0].actor")).isEqualTo("alice");
            assertThat(audit.getString("items[0].summary")).contains("the airline closed its API");
            assertThat(audit.getInt("items[0].before.version")).isEqualTo(2);

            // The capabilities manager is told the tool is gone for good (it frees the verb): catalog and registry agree.
            PluginStatusChanged disabled = kafka.codec().payload(kafka.codec().openEnvelope(statuses.awaitMatching(
                    r -> id.equals(r.key()), Duration.ofSeconds(20)).get(0).value()), PluginStatusChanged.class);
            assertThat(disabled.status()).isEqualTo(PluginStatus.RETIRED);
            assertThat(disabled.reason()).contains("retired").contains("alice").contains("the airline closed its API");

            List<ConsumerRecord<String, byte[]>> tombstones = catalog.awaitMatching(
                    r -> id.equals(r.key()) && r.value() == null, Duration.ofSeconds(20));
            assertThat(tombstones).hasSize(1);
            List<ConsumerRecord<String, byte[]>> forKey = catalog.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> id.equals(r.key())).toList();
            // Two entries, then the tombstone last: compaction keeps nothing of the tool.
            assertThat(forKey).hasSize(3);
            assertThat(forKey.get(2).value()).isNull();
        }
    }

    @Test
    void toolsRetiredAtOnceAreAllRetiredEachOnce() throws Exception {
        // concurrent retirements, as an admin clearing a source's tools from several tabs: each answers 204 and is
        // audited once (an entity delete under concurrency once left a session on another event loop)
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String id = "cat.concurrent-" + i;
            seeder.seed(TestTools.external(TestTools.tool(id, "LOOK_UP_CONCURRENT_" + i, "Lookup " + i,
                    "Looks up record " + i + ".", "data", "records", Risk.READ_ONLY, "key")));
            ids.add(id);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (String id : ids) {
                answers.add(pool.submit(() -> given().header("X-API-Key", ADMIN_KEY)
                        .queryParam("reason", "the records API closed").delete("/tools/" + id).statusCode()));
            }
            for (int i = 0; i < ids.size(); i++) {
                assertThat(answers.get(i).get(60, TimeUnit.SECONDS))
                        .as("DELETE /tools/%s", ids.get(i)).isEqualTo(204);
            }
        } finally {
            pool.shutdownNow();
        }
        for (String id : ids) {
            given().header("X-API-Key", VIEWER_KEY).get("/tools/" + id).then().statusCode(404);
            assertThat(given().header("X-API-Key", VIEWER_KEY).queryParam("subjectId", id)
                    .queryParam("action", "RETIRED").get("/audit").then().statusCode(200).extract().jsonPath()
                    .getList("items")).as("RETIRED entries of %s", id).hasSize(1);
        }
    }

    @Test
    void anInternalPluginIsNotTheCatalogsToRetire() {
        seeder.seed(TestTools.email("cat.internal"));
        given().header("X-API-Key", ADMIN_KEY).queryParam("reason", "not needed").delete("/tools/cat.internal")
                .then().statusCode(409).body("error", containsString("internal plugin"))
                .body("error", containsString("/plugins/cat.internal/disable"));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.internal").then().statusCode(200);
    }

    @Test
    void aChangeAnEventMakesIsAuditedWithWhoMadeItAndWhy() {
        seeder.seed(TestTools.external(TestTools.tool("cat.audited", "TRANSLATE_TEXT", "Translator",
                "Translates a text into another language.", "language", "translation", Risk.READ_ONLY, "text")));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            var sent = kafka.send(Topics.PLUGIN_STATUS, "cat.audited", new PluginStatusChanged("cat.audited",
                    PluginStatus.DISABLED, "answers 500 since the provider's release", "admin alice", Instant.now()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                    .queryParam("subjectId", "cat.audited").queryParam("action", "CATALOG_STATUS_CHANGED")
                    .get("/audit").then().statusCode(200).body("items", hasSize(1))
                    .body("items[0].actor", equalTo("admin alice"))
                    .body("items[0].summary", containsString("plugin-status event " + sent.id() + " from test"))
                    .body("items[0].summary", containsString(": answers 500 since the provider's release"))
                    .body("items[0].before.status", equalTo("active"))
                    .body("items[0].after.status", equalTo("disabled"))
                    .body("items[0].after.reason", equalTo("answers 500 since the provider's release")));
            // enabled again without a reason: the sender's who, no reason invented
            kafka.send(Topics.PLUGIN_STATUS, "cat.audited", new PluginStatusChanged("cat.audited",
                    PluginStatus.ENABLED, null, "admin bob", Instant.now()));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                    .queryParam("subjectId", "cat.audited").queryParam("action", "CATALOG_STATUS_CHANGED")
                    .get("/audit").then().statusCode(200).body("items", hasSize(2))
                    .body("items.find { it.after.status == 'active' }.actor", equalTo("admin bob"))
                    .body("items.find { it.after.status == 'active' }.after.reason", equalTo(null)));
        }
    }

    @Test
    void anAdminsThresholdChangeInTheCapabilitiesManagerIsAuditedWithBeforeAndAfter() {
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            // without who changed it, the notification breaks its contract: dead-lettered, nothing audited
            kafka.send(Topics.NOTIFICATIONS, "cat.tuned", new Notification(UUID.randomUUID().toString(),
                    Notification.Kind.HEALTH_THRESHOLDS_CHANGED, Notification.Severity.INFO, "forged", "no one",
                    "cat.tuned", Instant.now(), null, null, Map.of("failuresToDisable", 99)));
            kafka.send(Topics.NOTIFICATIONS, "cat.tuned", new Notification(UUID.randomUUID().toString(),
                    Notification.Kind.HEALTH_THRESHOLDS_CHANGED, Notification.Severity.INFO,
                    "Health thresholds of cat.tuned changed", "failuresToDisable 3 → 5", "cat.tuned", Instant.now(),
                    "admin carol", Map.of("failuresToDisable", 3), Map.of("failuresToDisable", 5)));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                    .queryParam("subjectId", "cat.tuned").queryParam("action", "HEALTH_THRESHOLDS_CHANGED")
                    .get("/audit").then().statusCode(200).body("items", hasSize(1))
                    .body("items[0].actor", equalTo("admin carol"))
                    .body("items[0].subjectType", equalTo("tool"))
                    .body("items[0].summary", containsString("failuresToDisable 3 → 5"))
                    .body("items[0].before.failuresToDisable", equalTo(3))
                    .body("items[0].after.failuresToDisable", equalTo(5)));
        }
    }

    @Test
    void theCatalogPagesByNamespaceDomainAndStatus() {
        for (int i = 0; i < 5; i++) {
            seeder.seed(TestTools.tool("page.tool-" + i, "PAGE_TOOL_" + i, "Paged tool " + i,
                    "A tool to page through " + i, "paging-ns", i % 2 == 0 ? "even" : "odd", Risk.READ_ONLY, "x"));
        }
        given().header("X-API-Key", VIEWER_KEY).queryParam("namespace", "paging-ns").queryParam("size", 2)
                .queryParam("page", 1).get("/tools").then().statusCode(200)
                .body("total", equalTo(5)).body("page", equalTo(1)).body("size", equalTo(2))
                .body("items.id", contains("page.tool-2", "page.tool-3"));
        given().header("X-API-Key", ADMIN_KEY).queryParam("namespace", "PAGING-NS").queryParam("domain", "even")
                .queryParam("status", "active").get("/tools").then().statusCode(200)
                .body("total", equalTo(3)).body("items.verb", contains("PAGE_TOOL_0", "PAGE_TOOL_2", "PAGE_TOOL_4"))
                .body("items[0].status", equalTo("active")).body("items[0].version", equalTo(1));
        given().header("X-API-Key", VIEWER_KEY).queryParam("namespace", "paging-ns").queryParam("status", "disabled")
                .get("/tools").then().statusCode(200).body("total", equalTo(0)).body("items", hasSize(0));

        given().header("X-API-Key", VIEWER_KEY).queryParam("status", "paused").get("/tools").then().statusCode(400)
                .body("error", containsString("paused"));
        given().header("X-API-Key", VIEWER_KEY).queryParam("size", 0).get("/tools").then().statusCode(400)
                .body("error", containsString("size"));
        given().header("X-API-Key", VIEWER_KEY).queryParam("page", -1).get("/tools").then().statusCode(400)
                .body("error", containsString("page"));
        // page × size past what an offset can hold: named, not Hibernate's "First result cannot be negative"
        given().header("X-API-Key", VIEWER_KEY).queryParam("page", Integer.MAX_VALUE).queryParam("size", 200).get("/tools")
                .then().statusCode(400).body("error", containsString("page: " + Integer.MAX_VALUE + " is past the last page"));
    }

    @Test
    void readsNeedAKeyAndAPlannerReadsOnlyTheActiveToolsItMayCall() {
        seeder.seed(TestTools.table("cat.roles"));
        given().get("/tools").then().statusCode(401);
        given().header("X-API-Key", "not-a-key").get("/tools/cat.roles").then().statusCode(401);
        given().header("Authorization", "Bearer " + SERVICE_KEY).get("/tools/cat.roles").then().statusCode(200);
        given().header("X-API-Key", VIEWER_KEY).get("/tools").then().statusCode(200);

        seeder.seed(TestTools.tool("reads.open", "READS_OPEN", "Open", "For everyone", "reads-ns", "d", Risk.READ_ONLY,
                "x"), List.of());
        seeder.seed(TestTools.tool("reads.mine", "READS_MINE", "Mine", "For planner-a", "reads-ns", "d", Risk.READ_ONLY,
                "x"), List.of("planner-a", "planner-c"));
        seeder.seed(TestTools.tool("reads.theirs", "READS_THEIRS", "Theirs", "For planner-b", "reads-ns", "d",
                Risk.READ_ONLY, "x"), List.of("planner-b"));
        seeder.seed(TestTools.tool("reads.off", "READS_OFF", "Off", "Disabled", "reads-ns", "d", Risk.READ_ONLY, "x"),
                List.of());
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_STATUS, "reads.off", new PluginStatusChanged("reads.off", PluginStatus.DISABLED,
                    "failing health checks", "capabilities-manager", Instant.now()));
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given().header("X-API-Key", VIEWER_KEY)
                .get("/tools/reads.off").then().body("status", equalTo("disabled")));

        // planner-a: the open tool and its own, never another's nor a disabled one, and no allowed-callers lists
        given().header("X-API-Key", PLANNER_KEY).queryParam("namespace", "reads-ns").get("/tools").then().statusCode(200)
                .body("total", equalTo(2)).body("items.id", contains("reads.mine", "reads.open"))
                .body("items[0].allowedCallers", org.hamcrest.Matchers.nullValue());
        given().header("X-API-Key", PLANNER_KEY).queryParam("namespace", "reads-ns").queryParam("status", "disabled")
                .get("/tools").then().statusCode(200).body("total", equalTo(0));
        given().header("X-API-Key", PLANNER_KEY).get("/tools/reads.mine").then().statusCode(200)
                .body("manifest.verb", equalTo("READS_MINE")).body("allowedCallers", org.hamcrest.Matchers.nullValue());
        for (String hidden : List.of("reads.theirs", "reads.off", "reads.nowhere")) {
            given().header("X-API-Key", PLANNER_KEY).get("/tools/" + hidden).then().statusCode(404)
                    .body("error", equalTo("no tool " + hidden));
        }
        // overseers still see everything, allowed callers included
        given().header("X-API-Key", VIEWER_KEY).queryParam("namespace", "reads-ns").get("/tools").then()
                .body("total", equalTo(4));
        given().header("X-API-Key", VIEWER_KEY).get("/tools/reads.theirs").then().statusCode(200)
                .body("allowedCallers", contains("planner-b"));
    }

    private CatalogEntry entry(ConsumerRecord<String, byte[]> record) {
        return codec.payload(codec.openEnvelope(record.value()), CatalogEntry.class);
    }

    private static Connection database() throws Exception {
        return DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_librarian"),
                PostgresTestResource.user(), PostgresTestResource.password());
    }
}
