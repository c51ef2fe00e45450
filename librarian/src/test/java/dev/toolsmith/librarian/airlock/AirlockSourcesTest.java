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

/** Every kind of source, the airlock's whole list of hostile input included, and find-or-build over the queue. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class AirlockSourcesTest {

    /**
     * The airlock's list of hostile input, each item a real source over HTTP, all left to the scheduler in
     * the same round as a good source: every hostile one ends FAILED with its problem in words on the
     * source, the good one still gets its tools, and the service stays healthy.
     */
    @Test
    void theSchedulerScansDueSourcesAndAFailingSourceRecordsItsErrorWhileOthersCarryOn() {
        String run = UUID.randomUUID().toString();
        String good = "/good-" + run + ".yaml";
        serve(good, petApi("Good Shop", "All pets"));
        String goodId = createSource(Map.of("name", "good", "type", "openapi", "url", url(good))).getString("id");
        String cyclicId = createSource(Map.of("name", "cyclic refs", "type", "openapi",
                "url", serveCyclicRefs("/cyclic-" + run))).getString("id");
        List<Hostile> hostile = hostileSources(run);
        Map<String, Hostile> byId = new java.util.LinkedHashMap<>();
        for (Hostile source : hostile) {
            byId.put(createSource(Map.of("name", source.name(), "type", "openapi", "url", source.url()))
                    .getString("id"), source);
        }

        // nobody calls scan: the worker finds them due (generous: the 50 MB document is refused mid-stream)
        List<String> all = new java.util.ArrayList<>(byId.keySet());
        all.addAll(List.of(goodId, cyclicId));
        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> {
            for (String id : all) {
                given().header("X-API-Key", VIEWER).get("/tools/sources/" + id).then()
                        .body("status", org.hamcrest.Matchers.not(org.hamcrest.Matchers.oneOf("NEW", "SCANNING")));
            }
        });
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + goodId).then().body("status", equalTo("OK"))
                .body("counts.found", equalTo(3)).body("counts.added", equalTo(3));
        byId.forEach((id, source) -> {
            JsonPath view = given().header("X-API-Key", VIEWER).get("/tools/sources/" + id).then().statusCode(200)
                    .extract().jsonPath();
            assertThat(view.getString("status")).as(source.name()).isEqualTo("FAILED");
            assertThat(view.getString("lastError")).as(source.name()).contains(source.errorNames());
        });
        // a cycle of $refs across documents is not an error: it is cut at its first repetition, with a note
        given().header("X-API-Key", VIEWER).get("/tools/sources/" + cyclicId).then().body("status", equalTo("OK"))
                .body("counts.found", equalTo(1));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + candidateId(cyclicId, "GET /nodes")).then()
                .body("manifest.outputSchema.toString()", containsString("recursive reference"));
        given().header("X-API-Key", VIEWER).get("/notifications?size=200").then()
                .body("items.findAll { it.kind == 'SOURCE_SCAN_FAILED' }.subjectId",
                        org.hamcrest.Matchers.hasItems(byId.keySet().toArray(String[]::new)));
        // the service is unharmed
        given().get("/q/health").then().statusCode(200);
    }

    /** A source that must fail, and the words its error must contain. */
    private record Hostile(String name, String url, String... errorNames) {}

    private static List<Hostile> hostileSources(String run) {
        String malformedYaml = "/malformed-" + run + ".yaml";
        serve(malformedYaml, "openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n");
        String malformedJson = "/malformed-" + run + ".json";
        serve(malformedJson, "{\"openapi\": \"3.0.0\",\n \"info\": {\"title\": \"x\",, }\n}");
        String bomb = "/bomb-" + run + ".yaml";
        StringBuilder lol = new StringBuilder("openapi: 3.0.0\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 12; i++) {
            lol.append("a").append(i).append(": &a").append(i).append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(8, "*a" + (i - 1)))).append("]\n");
        }
        serve(bomb, lol.toString());
        // The test configuration allows private networks (the documents live on loopback); the guard
        // still refuses cloud metadata addresses, the target an attacker wants most.
        String metadataRef = "http://169.254.169.254/latest/meta-data/openapi.yaml";
        String refToMetadata = "/ref-to-metadata-" + run + ".yaml";
        serve(refToMetadata, """
                openapi: 3.0.3
                info: {title: Sneaky, version: '1'}
                servers: [{url: 'https://sneaky.example.com'}]
                paths:
                  /x:
                    get:
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: '%s#/Secret'}
                """.formatted(metadataRef));
        String redirectToMetadata = "/moved-" + run + ".yaml";
        AirlockFixtures.wiremock().stubFor(com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo(redirectToMetadata))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(302)
                        .withHeader("Location", "http://169.254.169.254/latest/meta-data/iam/security-credentials/")));
        String notOpenApi = "/readme-" + run + ".yaml";
        serve(notOpenApi, "title: just some notes\nitems: [1, 2]\n");
        return List.of(
                new Hostile("malformed yaml", url(malformedYaml), "not valid YAML", "line"),
                new Hostile("malformed json", url(malformedJson), "not valid JSON at line 2"),
                new Hostile("bomb", url(bomb), "aliases"),
                new Hostile("fifty megabytes", LargeDocument.url(), "than the limit of 10485760 bytes"),
                new Hostile("ref to metadata", url(refToMetadata), "external $ref " + metadataRef, "cloud metadata"),
                new Hostile("redirect to metadata", url(redirectToMetadata), "169.254.169.254", "cloud metadata"),
                new Hostile("notes", url(notOpenApi), "not an OpenAPI or Swagger document"),
                new Hostile("metadata", "http://169.254.169.254/latest/openapi.json", "cloud metadata"),
                new Hostile("down", "http://127.0.0.1:1/openapi.json", "cannot connect to 127.0.0.1:1"));
    }

    /** An API whose response schema refers to another document that refers back to the first. */
    private static String serveCyclicRefs(String base) {
        serve(base + "/openapi.yaml", """
                openapi: 3.0.3
                info: {title: Cycles, version: '1'}
                servers: [{url: 'https://cycles.example.com'}]
                paths:
                  /nodes:
                    get:
                      operationId: listNodes
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: 'node.yaml#/Node'}
                """);
        serve(base + "/node.yaml", """
                Node:
                  type: object
                  properties:
                    name: {type: string}
                    parent: {$ref: 'parent.yaml#/Parent'}
                """);
        serve(base + "/parent.yaml", """
                Parent:
                  type: object
                  properties:
                    child: {$ref: 'node.yaml#/Node'}
                """);
        return url(base + "/openapi.yaml");
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
    void notificationsAreReadByEachReaderOnTheirOwn() {
        String path = "/notify-" + UUID.randomUUID() + ".yaml";
        serve(path, petApi("Notify Shop", "All pets"));
        scan(createSource(Map.of("name", "notify", "type", "openapi", "url", url(path))).getString("id"));
        String another = "/notify-too-" + UUID.randomUUID() + ".yaml";
        serve(another, petApi("Notify Too", "All pets"));
        scan(createSource(Map.of("name", "notify-too", "type", "openapi", "url", url(another))).getString("id"));

        JsonPath page = given().header("X-API-Key", VIEWER).get("/notifications?unreadOnly=true").then().statusCode(200)
                .extract().jsonPath();
        assertThat(page.getLong("unread")).isGreaterThanOrEqualTo(2);
        String first = page.getString("items[0].id");
        String second = page.getString("items[1].id");
        given().header("X-API-Key", VIEWER).post("/notifications/" + first + "/read").then().statusCode(204);
        given().header("X-API-Key", VIEWER).post("/notifications/" + first + "/read").then().statusCode(204);
        given().header("X-API-Key", VIEWER).post("/notifications/" + UUID.randomUUID() + "/read").then().statusCode(404);
        given().header("X-API-Key", VIEWER).get("/notifications?page=" + Integer.MAX_VALUE + "&size=200").then()
                .statusCode(400).body("error", org.hamcrest.Matchers.containsString("past the last page"));
        given().header("X-API-Key", VIEWER).get("/notifications?size=0").then().statusCode(400);
        // a malformed id is the caller's mistake, named as such (issue 19), not an unknown notification
        given().header("X-API-Key", VIEWER).post("/notifications/not-a-uuid/read").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.containsString("not-a-uuid"));
        assertThat(readAt(VIEWER, first)).as("read for the viewer who marked it").isNotNull();
        assertThat(readAt(ADMIN, first)).as("a viewer's read does not hide it from the admins").isNull();

        given().header("X-API-Key", ADMIN).post("/notifications/read-all").then().statusCode(200);
        assertThat(readAt(ADMIN, first)).isNotNull();
        assertThat(readAt(ADMIN, second)).isNotNull();
        assertThat(readAt(VIEWER, second)).as("the admin's read-all is the admin's own").isNull();
    }

    /** When this caller read the notification (null: unread); pages through, as failing scans keep adding more. */
    private static String readAt(String key, String notificationId) {
        for (int page = 0; page < 100; page++) {
            JsonPath body = given().header("X-API-Key", key).get("/notifications?size=200&page=" + page).then()
                    .statusCode(200).extract().jsonPath();
            List<Map<String, Object>> items = body.getList("items");
            for (Map<String, Object> item : items) {
                if (notificationId.equals(item.get("id"))) {
                    return (String) item.get("readAt");
                }
            }
            if (items.size() < 200) {
                break;
            }
        }
        throw new AssertionError(notificationId + " is not listed for " + key);
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
