package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
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
import static org.hamcrest.Matchers.hasItem;

import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;

/** Every kind of source, hostile ones included, and find-or-build over the queue. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class AirlockSourcesTest {

    @Test
    void theSchedulerScansDueSourcesAndAFailingSourceRecordsItsErrorWhileOthersCarryOn() {
        String good = "/good-" + UUID.randomUUID() + ".yaml";
        String bomb = "/bomb-" + UUID.randomUUID() + ".yaml";
        String notOpenApi = "/readme-" + UUID.randomUUID() + ".yaml";
        serve(good, petApi("Good Shop", "All pets"));
        StringBuilder lol = new StringBuilder("openapi: 3.0.0\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 12; i++) {
            lol.append("a").append(i).append(": &a").append(i).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(8, "*a" + (i - 1)))).append("]\n");
        }
        serve(bomb, lol.toString());
        serve(notOpenApi, "title: just some notes\nitems: [1, 2]\n");
        String goodId = createSource(Map.of("name", "good", "type", "openapi", "url", url(good))).getString("id");
        String bombId = createSource(Map.of("name", "bomb", "type", "openapi", "url", url(bomb))).getString("id");
        String notesId = createSource(Map.of("name", "notes", "type", "openapi", "url", url(notOpenApi))).getString("id");
        String metadataId = createSource(Map.of("name", "metadata", "type", "openapi",
                "url", "http://169.254.169.254/latest/openapi.json")).getString("id");
        String downId = createSource(Map.of("name", "down", "type", "openapi",
                "url", "http://127.0.0.1:1/openapi.json")).getString("id");

        // nobody calls scan: the worker finds them due
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (String id : List.of(goodId, bombId, notesId, metadataId, downId)) {
                given().header("X-API-Key", VIEWER).get("/tools/sources/" + id).then()
                        .body("status", org.hamcrest.Matchers.not(org.hamcrest.Matchers.oneOf("NEW", "SCANNING")));
            }
        });
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + goodId).then().body("status", equalTo("OK"))
                .body("counts.found", equalTo(3)).body("counts.added", equalTo(3));
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + bombId).then().body("status", equalTo("FAILED"))
                .body("lastError", containsString("aliases"));
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + notesId).then().body("status", equalTo("FAILED"))
                .body("lastError", containsString("not an OpenAPI or Swagger document"));
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + metadataId).then().body("status", equalTo("FAILED"))
                .body("lastError", containsString("cloud metadata"));
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + downId).then().body("status", equalTo("FAILED"))
                .body("lastError", containsString("cannot connect to 127.0.0.1:1"));
        given().header("X-API-Key", VIEWER).get("/notifications?size=200").then()
                .body("items.findAll { it.kind == 'SOURCE_SCAN_FAILED' }.subjectId", hasItem(bombId));
        // the service is unharmed
        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void aGitRepositoryOfManifestsIsReadWithJGit(@org.junit.jupiter.api.io.TempDir Path repo) throws Exception {
        Files.createDirectories(repo.resolve("tools"));
        Files.writeString(repo.resolve("tools/weather.yaml"), """
                id: acme.weather
                verb: GET_WEATHER
                name: weather
                description: The weather forecast for a city.
                inputSchema: {type: object, properties: {city: {type: string}}, required: [city]}
                """);
        Files.writeString(repo.resolve("tools/broken.json"), "{\"verb\": \"NO_ID\"}");
        Files.writeString(repo.resolve("README.md"), "not a manifest");
        try (Git git = Git.init().setDirectory(repo.toFile()).setInitialBranch("main").call()) {
            git.add().addFilepattern(".").call();
            git.commit().setMessage("tools").setAuthor("test", "test@example.com")
                    .setCommitter("test", "test@example.com").call();
        }
        String source = createSource(Map.of("name", "acme git", "type", "git", "url", repo.toUri().toString(),
                "branch", "main", "path", "tools")).getString("id");

        JsonPath scanned = scan(source);
        assertThat(scanned.getString("status")).isEqualTo("OK");
        assertThat(scanned.getInt("counts.found")).isEqualTo(1);
        assertThat(scanned.getInt("counts.skipped")).isEqualTo(1);
        String weather = candidateId(source, "tools/weather.yaml");
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + weather).then()
                .body("manifest.source", equalTo("git")).body("manifest.risk", equalTo("WRITE_REMOTE"))
                .body("toolId", equalTo("acme.weather"));

        String wrongBranch = createSource(Map.of("name", "acme git dev", "type", "git", "url", repo.toUri().toString(),
                "branch", "develop", "path", "tools")).getString("id");
        assertThat(scan(wrongBranch).getString("lastError")).contains("develop");
    }

    @Test
    void aMarketplaceIndexListsManifestsAndOpenApiDocuments() {
        String base = "/market-" + UUID.randomUUID();
        serve(base + "/pets.yaml", petApi("Market Pets", "All pets"));
        serve(base + "/fx.json", """
                {"id": "market.fx", "verb": "CONVERT_CURRENCY", "name": "convert_currency",
                 "description": "Converts money between currencies.", "risk": "READ_ONLY"}
                """);
        serve(base + "/index.json", """
                {"entries": [
                  {"type": "manifest", "url": "fx.json"},
                  {"type": "openapi", "url": "pets.yaml"},
                  {"type": "manifest", "url": "missing.json"}
                ]}
                """);
        String source = createSource(Map.of("name", "market", "type", "marketplace", "url", url(base + "/index.json")))
                .getString("id");

        JsonPath scanned = scan(source);
        assertThat(scanned.getString("status")).isEqualTo("OK");
        assertThat(scanned.getInt("counts.found")).isEqualTo(4);
        assertThat(scanned.getInt("counts.skipped")).isEqualTo(1);
        assertThat(pending("?source=" + source).getList("items.toolId", String.class)).contains("market.fx");
    }

    @Test
    void aCapabilityGapTagsTheBestCandidatesInTheQueueAndNotifies() {
        String path = "/gap-" + UUID.randomUUID() + ".yaml";
        serve(path, """
                openapi: 3.0.3
                info: {title: Translator, version: '1'}
                servers: [{url: 'https://translate.example.com'}]
                paths:
                  /translate:
                    post:
                      operationId: translateText
                      summary: Translate a text into another language
                      requestBody:
                        content:
                          application/json:
                            schema: {type: object, properties: {text: {type: string}, target_language: {type: string}}}
                      responses: {'200': {description: translated}}
                  /languages:
                    get:
                      operationId: listLanguages
                      summary: List the supported languages
                      responses: {'200': {description: languages}}
                """);
        String source = createSource(Map.of("name", "translator", "type", "openapi", "url", url(path))).getString("id");
        scan(source);
        String translate = candidateId(source, "POST /translate");
        String verb = "translate_document_" + UUID.randomUUID().toString().substring(0, 8);

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.CAPABILITY_GAPS, verb, new CapabilityGap(verb, verb.toUpperCase(),
                    "translate this text into French", List.of("text", "target_language"), "step-1", "plan-1", 1, null));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/gaps?size=200").then().statusCode(200)
                    .body("items.find { it.normalizedVerb == '" + verb + "' }.matches.candidateId", hasItem(translate)));
            kafka.send(Topics.CAPABILITY_GAPS, verb, new CapabilityGap(verb, verb.toUpperCase(),
                    "translate this text into French", List.of("text"), "step-2", "plan-1", 2, null));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                    .get("/gaps?size=200").then()
                    .body("items.find { it.normalizedVerb == '" + verb + "' }.timesSeen", equalTo(2)));
        }
        assertThat(pending("?gap=" + verb).getList("items.id", String.class)).contains(translate);
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + translate).then()
                .body("gaps.normalizedVerb", hasItem(verb));
        given().header("X-API-Key", VIEWER).get("/notifications?size=200").then()
                .body("items.findAll { it.kind == 'CAPABILITY_GAP' }.subjectId", hasItem(verb));
    }

    @Test
    void aDirectoryIsScannedOnlyOnDemandAndFeedsGaps() {
        String base = "/directory-" + UUID.randomUUID();
        serve(base + "/weather.yaml", """
                openapi: 3.0.3
                info: {title: Volcano Watch, version: '1'}
                servers: [{url: 'https://volcano.example.com'}]
                paths:
                  /eruptions:
                    get:
                      operationId: listEruptionAlerts
                      summary: Volcano eruption alerts near a place
                      parameters: [{name: place, in: query, required: true, schema: {type: string}}]
                      responses: {'200': {description: alerts}}
                """);
        serve(base + "/list.json", """
                {"volcano.example.com": {"preferred": "1", "versions": {"1": {"swaggerUrl": "%s",
                   "info": {"title": "Volcano Watch", "description": "Volcano eruption alerts for any place",
                            "x-apisguru-categories": ["open_data"]}}}},
                 "stocks.example.com": {"preferred": "2", "versions": {"2": {"swaggerUrl": "%s",
                   "info": {"title": "Stock quotes", "description": "Share prices", "x-apisguru-categories": ["financial"]}}}}}
                """.formatted(url(base + "/weather.yaml"), url(base + "/missing.yaml")));
        String source = createSource(Map.of("name", "directory", "type", "directory", "url", url(base + "/list.json")))
                .getString("id");
        assertThat(scan(source).getInt("counts.found")).isEqualTo(2);
        assertThat(pending("?source=" + source).getList("items")).isEmpty();

        String verb = "volcano_alerts_" + UUID.randomUUID().toString().substring(0, 8);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.CAPABILITY_GAPS, verb, new CapabilityGap(verb, "GET_VOLCANO_ALERTS",
                    "volcano eruption alerts near a place", List.of("place"), "step-9", "plan-9", 1, null));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                pending("?source=" + source + "&gap=" + verb).getList("items.operationKey", String.class))
                .contains("volcano.example.com GET /eruptions"));
    }

    @Test
    void notificationsCanBeReadOneByOneOrAllAtOnce() {
        String path = "/notify-" + UUID.randomUUID() + ".yaml";
        serve(path, petApi("Notify Shop", "All pets"));
        scan(createSource(Map.of("name", "notify", "type", "openapi", "url", url(path))).getString("id"));

        JsonPath page = given().header("X-API-Key", VIEWER).get("/notifications?unreadOnly=true").then().statusCode(200)
                .extract().jsonPath();
        assertThat(page.getLong("unread")).isPositive();
        String first = page.getString("items[0].id");
        given().header("X-API-Key", VIEWER).post("/notifications/" + first + "/read").then().statusCode(204);
        given().header("X-API-Key", VIEWER).post("/notifications/" + UUID.randomUUID() + "/read").then().statusCode(404);
        given().header("X-API-Key", ADMIN).post("/notifications/read-all").then().statusCode(200);
        given().header("X-API-Key", VIEWER).get("/notifications").then().body("unread", equalTo(0));
    }

    @Test
    void deletingASourceIsAudited() {
        String id = createSource(Map.of("name", "short-lived", "type", "openapi",
                "url", "https://short.example.com/openapi.json")).getString("id");
        given().header("X-API-Key", ADMIN).delete("/tools/sources/" + id).then().statusCode(204);
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + id).then().statusCode(404);
        given().header("X-API-Key", VIEWER).get("/audit?subjectId=" + id).then()
                .body("items.action", org.hamcrest.Matchers.contains("SOURCE_DELETED", "SOURCE_CREATED"))
                .body("items[0].actor", equalTo("alice"))
                .body("items[0].before.name", equalTo("short-lived"));
    }
}
