package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.pending;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.petApi;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.scan;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The long lists of the airlock: the review queue and the sources searched, sorted and paged on the
 * server, every bad parameter a 400 naming it, and a decision on everything a filter matches (counted,
 * confirmed, audited).
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class ReviewListsTest {

    /** A source of {@code operations} tools with a name unique to the test run. */
    private static String scannedSource(String name, int operations) {
        String path = "/lists-" + UUID.randomUUID() + ".yaml";
        serve(path, ManyOperations.document(name, operations));
        String id = createSource(Map.of("name", name, "type", "openapi", "url", url(path), "intervalSeconds", 86400))
                .getString("id");
        scan(id);
        return id;
    }

    @Test
    void theQueueIsSearchedSortedAndPagedOnTheServer() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String source = scannedSource("Lists " + run, 9);

        // the source's name finds all of its tools; an operation id only its own
        JsonPath all = pending("?q=lists " + run + "&size=200");
        assertThat(all.getLong("total")).isEqualTo(9);
        JsonPath one = pending("?source=" + source + "&q=THINGS2/");
        assertThat(one.getList("items.operationKey", String.class)).hasSize(1).allMatch(k -> k.contains("/things2/"));
        // LIKE's wildcards are searched as text
        assertThat(pending("?source=" + source + "&q=%").getLong("total")).isZero();

        List<String> verbs = pending("?source=" + source + "&sort=verb&size=200").getList("items.verb", String.class);
        assertThat(verbs).hasSize(9).isSortedAccordingTo(String::compareTo);
        List<String> descending = pending("?source=" + source + "&sort=-verb&size=200").getList("items.verb", String.class);
        List<String> reversed = new java.util.ArrayList<>(verbs);
        java.util.Collections.reverse(reversed);
        assertThat(descending).containsExactlyElementsOf(reversed);
        // risk by severity: the deletes (DESTRUCTIVE) last, the lists (READ_ONLY) first
        List<String> risks = pending("?source=" + source + "&sort=risk&size=200").getList("items.risk", String.class);
        assertThat(risks.get(0)).isEqualTo("READ_ONLY");
        assertThat(risks.get(risks.size() - 1)).isEqualTo("DESTRUCTIVE");

        JsonPath second = pending("?source=" + source + "&sort=verb&page=1&size=4");
        assertThat(second.getList("items.verb", String.class)).containsExactlyElementsOf(verbs.subList(4, 8));
        assertThat(second.getLong("total")).isEqualTo(9);
    }

    @Test
    void badListParametersAreRefusedNamingTheParameter() {
        given().header("X-API-Key", VIEWER).get("/tools/pending?sort=price").then().statusCode(400)
                .body("error", containsString("sort: 'price' is not one of updated, discovered, verb"));
        given().header("X-API-Key", VIEWER).get("/tools/pending?q=" + "x".repeat(201)).then().statusCode(400)
                .body("error", containsString("q: longer than 200 characters"));
        given().header("X-API-Key", VIEWER).get("/tools/pending?risk=SCARY").then().statusCode(400)
                .body("error", containsString("SCARY"));
        given().header("X-API-Key", VIEWER).get("/tools/sources?status=BROKEN").then().statusCode(400)
                .body("error", containsString("status: 'BROKEN' is not one of NEW, SCANNING, OK, FAILED"));
        given().header("X-API-Key", VIEWER).get("/tools/sources?type=ftp").then().statusCode(400)
                .body("error", containsString("type: 'ftp' is not one of"));
        given().header("X-API-Key", VIEWER).get("/tools/sources?sort=-url").then().statusCode(400)
                .body("error", containsString("sort: '-url' is not one of name, type"));
        given().header("X-API-Key", VIEWER).get("/tools/sources?size=201").then().statusCode(400)
                .body("error", containsString("size: 201 is outside 1..200"));
        given().header("X-API-Key", VIEWER).get("/tools/sources?page=-1").then().statusCode(400)
                .body("error", containsString("page: -1 is below 0"));
    }

    @Test
    void sourcesAreSearchedFilteredSortedAndPaged() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        for (String name : List.of("b", "a", "c")) {
            String path = "/src-" + run + name + ".yaml";
            serve(path, petApi("Shop " + name, "All pets"));
            createSource(Map.of("name", "Sorted " + run + " " + name, "type", "openapi", "url", url(path),
                    "intervalSeconds", 86400));
        }
        JsonPath page = given().header("X-API-Key", VIEWER)
                .get("/tools/sources?q=sorted " + run + "&sort=-name&page=0&size=2").then().statusCode(200)
                .extract().jsonPath();
        assertThat(page.getList("items.name", String.class))
                .containsExactly("Sorted " + run + " c", "Sorted " + run + " b");
        assertThat(page.getLong("total")).isEqualTo(3);
        // without page or size: the whole list as before, filters applied
        List<String> plain = given().header("X-API-Key", VIEWER).get("/tools/sources?q=" + run + "&type=OpenAPI")
                .then().statusCode(200).extract().jsonPath().getList("name", String.class);
        assertThat(plain).hasSize(3);
        assertThat(given().header("X-API-Key", VIEWER).get("/tools/sources?q=" + run + "&type=git")
                .then().statusCode(200).extract().jsonPath().getList("name", String.class)).isEmpty();
        // a source whose document is missing fails its scan: the status filter finds it, and only it
        String missing = createSource(Map.of("name", "Sorted " + run + " missing", "type", "openapi",
                "url", url("/missing-" + run + ".yaml"), "intervalSeconds", 86400)).getString("id");
        scan(missing);
        assertThat(given().header("X-API-Key", VIEWER).get("/tools/sources?q=" + run + "&status=failed")
                .then().statusCode(200).extract().jsonPath().getList("id", String.class)).containsExactly(missing);
    }

    @Test
    void everythingAFilterMatchesIsRejectedOnlyWithTheConfirmedCountAndAudited() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String source = scannedSource("Bulk " + run, 9);
        Map<String, Object> destructive = Map.of("source", source, "risk", "DESTRUCTIVE");
        assertThat(pending("?source=" + source + "&risk=DESTRUCTIVE").getLong("total")).isEqualTo(3);

        // a count that is not what the filter matches now: nothing happens
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("filter", destructive, "expectedCount", 4, "reason", "no deletes"))
                .post("/tools/pending/reject").then().statusCode(409)
                .body("error", containsString("the filter now matches 3 tools, not 4"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("filter", destructive, "reason", "no deletes"))
                .post("/tools/pending/reject").then().statusCode(400).body("error", containsString("expectedCount"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("filter", Map.of("risk", "SCARY"), "expectedCount", 1, "reason", "r"))
                .post("/tools/pending/reject").then().statusCode(400).body("error", containsString("SCARY"));
        given().header("X-API-Key", VIEWER).contentType(ContentType.JSON)
                .body(Map.of("filter", destructive, "expectedCount", 3, "reason", "no deletes"))
                .post("/tools/pending/reject").then().statusCode(403);
        assertThat(pending("?source=" + source + "&risk=DESTRUCTIVE").getLong("total")).isEqualTo(3);

        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("filter", destructive, "expectedCount", 3, "reason", "no deletes"))
                .post("/tools/pending/reject").then().statusCode(200)
                .body("matched", equalTo(3)).body("done", equalTo(3)).body("failed", equalTo(0));
        assertThat(pending("?source=" + source + "&risk=DESTRUCTIVE").getLong("total")).isZero();
        assertThat(pending("?source=" + source).getLong("total")).isEqualTo(6);
        assertThat(pending("?source=" + source + "&status=REJECTED").getList("items.risk", String.class))
                .hasSize(3).containsOnly("DESTRUCTIVE");

        JsonPath audit = given().header("X-API-Key", VIEWER).get("/audit?action=BULK_REJECTED&size=50").then()
                .statusCode(200).extract().jsonPath();
        Map<String, Object> entry = audit.getList("items", Map.class).stream()
                .filter(e -> String.valueOf(e.get("after")).contains(source)).findFirst()
                .orElseThrow(() -> new AssertionError("no BULK_REJECTED entry for " + source + ": " + audit.prettify()));
        assertThat(entry.get("actor")).isNotNull();
        assertThat((String) entry.get("summary")).isEqualTo("Rejected 3 of 3 matching tools: no deletes");
        // and each tool has its own REJECTED entry
        assertThat(given().header("X-API-Key", VIEWER).get("/audit?action=REJECTED&size=200").then().statusCode(200)
                .extract().jsonPath().getList("items.summary", String.class).stream()
                .filter(s -> s.endsWith(": no deletes")).count()).isGreaterThanOrEqualTo(3);
    }
}
