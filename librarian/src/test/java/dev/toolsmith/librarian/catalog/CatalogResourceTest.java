package dev.toolsmith.librarian.catalog;

import static dev.toolsmith.librarian.TestTools.ADMIN_KEY;
import static dev.toolsmith.librarian.TestTools.PLANNER_KEY;
import static dev.toolsmith.librarian.TestTools.SERVICE_KEY;
import static dev.toolsmith.librarian.TestTools.VIEWER_KEY;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.search.ToolVectors;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The catalog over REST on the real PostgreSQL and Kafka: versioning, validation, paging, delete, roles. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class CatalogResourceTest {

    private final ContractCodec codec = new ContractCodec();

    @Test
    void reindexingWithAnotherHashMakesANewVersionAndTheSameHashChangesNothing() throws Exception {
        ToolManifest v1 = TestTools.weather("cat.weather");
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(codec.toJson(v1).toString())
                .post("/tools/index").then().statusCode(201)
                .body("toolId", equalTo("cat.weather")).body("version", equalTo(1)).body("newVersion", equalTo(true))
                .body("status", equalTo("active"));
        // A client's version and hash are ignored: the catalog numbers versions and hashes content itself.
        given().header("X-API-Key", SERVICE_KEY).contentType(ContentType.JSON)
                .body(codec.toJson(v1.withVersion(7, "sha256:made-up")).toString())
                .post("/tools/index").then().statusCode(200)
                .body("version", equalTo(1)).body("newVersion", equalTo(false));

        ToolManifest changed = TestTools.tool("cat.weather", "GET_WEATHER_FORECAST", "Weather forecast",
                "Hourly weather forecast for a city, up to ten days ahead.", "weather", "forecast",
                dev.toolsmith.contracts.tool.Risk.READ_ONLY, "city", "date", "hours");
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(codec.toJson(changed).toString())
                .post("/tools/index").then().statusCode(201).body("version", equalTo(2));

        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.weather").then().statusCode(200)
                .body("version", equalTo(2)).body("status", equalTo("active"))
                .body("manifest.description", containsString("Hourly"))
                .body("manifest.version", equalTo(2))
                .body("manifest.contentHash", containsString("sha256:"))
                .body("versions.version", contains(1, 2));

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
        String body = codec.toJson(TestTools.currency("cat.concurrent")).toString();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<Integer>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(pool.submit(() -> given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON)
                        .body(body).post("/tools/index").then().extract().statusCode()));
            }
            List<Integer> statuses = new java.util.ArrayList<>();
            for (var call : calls) {
                statuses.add(call.get());
            }
            assertThat(statuses).containsOnly(200, 201).filteredOn(s -> s == 201).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.concurrent").then().statusCode(200)
                .body("versions.version", contains(1));
    }

    @Test
    void anInvalidManifestIsRefusedWithThePointerOfTheFirstProblem() {
        ObjectNode missingVerb = (ObjectNode) codec.toJson(TestTools.email("cat.bad"));
        missingVerb.remove("verb");
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(missingVerb.toString())
                .post("/tools/index").then().statusCode(400)
                .body("pointer", equalTo("/verb")).body("error", containsString("/verb"));

        ObjectNode badRisk = (ObjectNode) codec.toJson(TestTools.email("cat.bad"));
        badRisk.put("risk", "HARMLESS");
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(badRisk.toString())
                .post("/tools/index").then().statusCode(400).body("pointer", equalTo("/risk"));

        ObjectNode badId = (ObjectNode) codec.toJson(TestTools.email("cat.bad"));
        badId.put("id", "no spaces allowed");
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(badId.toString())
                .post("/tools/index").then().statusCode(400).body("pointer", equalTo("/id"));

        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body("{not json")
                .post("/tools/index").then().statusCode(400).body("error", containsString("not valid JSON"));

        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.bad").then().statusCode(404);
    }

    @Test
    void theCatalogPagesByNamespaceDomainAndStatus() {
        for (int i = 0; i < 5; i++) {
            index(TestTools.tool("page.tool-" + i, "PAGE_TOOL_" + i, "Paged tool " + i, "A tool to page through " + i,
                    "paging-ns", i % 2 == 0 ? "even" : "odd", dev.toolsmith.contracts.tool.Risk.READ_ONLY, "x"));
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
    void deletingRemovesEveryVersionAndPublishesATombstone() {
        index(TestTools.flight("cat.flight/v-slash"));
        index(TestTools.tool("cat.flight/v-slash", "BOOK_FLIGHT", "Flight booking", "Books flights, now with seats.",
                "travel", "flights", dev.toolsmith.contracts.tool.Risk.WRITE_REMOTE, "origin", "destination", "seat"));

        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.flight/v-slash").then().statusCode(200)
                .body("version", equalTo(2));
        given().header("X-API-Key", VIEWER_KEY).delete("/tools/cat.flight/v-slash").then().statusCode(403);
        given().header("X-API-Key", ADMIN_KEY).delete("/tools/cat.flight/v-slash").then().statusCode(204);
        given().header("X-API-Key", VIEWER_KEY).get("/tools/cat.flight/v-slash").then().statusCode(404)
                .body("error", containsString("cat.flight/v-slash"));
        given().header("X-API-Key", ADMIN_KEY).delete("/tools/cat.flight/v-slash").then().statusCode(404);

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.TOOL_CATALOG)) {
            List<ConsumerRecord<String, byte[]>> tombstones = reader.awaitMatching(
                    r -> "cat.flight/v-slash".equals(r.key()) && r.value() == null, Duration.ofSeconds(20));
            assertThat(tombstones).hasSize(1);
            List<ConsumerRecord<String, byte[]>> forKey = reader.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> "cat.flight/v-slash".equals(r.key())).toList();
            // Two entries, then the tombstone last: compaction keeps nothing of the tool.
            assertThat(forKey).hasSize(3);
            assertThat(forKey.get(2).value()).isNull();
        }
    }

    @Test
    void changesNeedAnAdminOrAServiceAndReadsAViewer() {
        String body = codec.toJson(TestTools.table("cat.roles")).toString();
        given().contentType(ContentType.JSON).body(body).post("/tools/index").then().statusCode(401);
        given().header("X-API-Key", "not-a-key").contentType(ContentType.JSON).body(body).post("/tools/index")
                .then().statusCode(401);
        given().header("X-API-Key", VIEWER_KEY).contentType(ContentType.JSON).body(body).post("/tools/index")
                .then().statusCode(403);
        given().header("X-API-Key", PLANNER_KEY).contentType(ContentType.JSON).body(body).post("/tools/index")
                .then().statusCode(403);
        given().header("Authorization", "Bearer " + SERVICE_KEY).contentType(ContentType.JSON).body(body)
                .post("/tools/index").then().statusCode(201);
        // Planners search; they do not browse the catalog (it would show tools their access hides).
        given().header("X-API-Key", PLANNER_KEY).get("/tools/cat.roles").then().statusCode(403);
        given().get("/tools").then().statusCode(401);
    }

    private void index(ToolManifest manifest) {
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(codec.toJson(manifest).toString())
                .post("/tools/index").then().statusCode(201);
    }

    private CatalogEntry entry(ConsumerRecord<String, byte[]> record) {
        return codec.payload(codec.openEnvelope(record.value()), CatalogEntry.class);
    }

    private static Connection database() throws Exception {
        return DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_librarian"),
                PostgresTestResource.user(), PostgresTestResource.password());
    }
}
