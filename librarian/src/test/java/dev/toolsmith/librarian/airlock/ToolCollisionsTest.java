package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.candidateId;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.pending;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.scan;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, findings 3 and 6: a candidate that collides with a tool in service. Another source on the same
 * host with the same operationId used to arrive as "new" and, once approved, take over the approved tool
 * and drop its policy; a verb an internal plugin serves used to be approved, built and shown ACTIVE while
 * the capabilities manager refused to run it.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class ToolCollisionsTest {

    /** A policy with a limit, so approvals of tools that change data are not refused for having none. */
    private static final Map<String, Object> LIMITED = Map.of("rateLimit", Map.of("perMinute", 60));

    @Inject
    CatalogSeeder seeder;

    @Test
    void aSecondSourceOnTheSameHostCannotTakeOverAnApprovedToolUnnoticed() {
        String host = "quotes-" + shortId() + ".example.com";
        String original = source("original quotes", quoteApi(host, "getQuote", "get", "/quote"));
        String originalCandidate = candidateId(original, "GET /quote");
        JsonPath approved = approve(originalCandidate, Map.of("policy", Map.of(
                "budget", Map.of("currency", "EUR", "costPerCall", 0.01, "hardLimit", 25),
                "allowedCallers", List.of("planner-a")))).statusCode(200).extract().jsonPath();
        String toolId = approved.getString("toolId");
        assertThat(toolId).startsWith(host + ":");

        // Another source, same host, same operationId: same tool id, another endpoint and method.
        String copycat = source("copycat quotes", quoteApi(host, "getQuote", "post", "/v2/quote"));
        String copy = candidateId(copycat, "POST /v2/quote");
        JsonPath details = given().header("X-API-Key", VIEWER).get("/tools/pending/" + copy).then().statusCode(200)
                .extract().jsonPath();
        assertThat(details.getString("toolId")).isEqualTo(toolId);
        assertThat(details.getString("collisions[0].kind")).isEqualTo("REPLACES");
        assertThat(details.getString("collisions[0].toolId")).isEqualTo(toolId);
        assertThat(details.getString("collisions[0].source")).isEqualTo("original quotes");
        assertThat(details.getList("collisions[0].matchedOn", String.class)).contains("id", "verb");
        // the full diff: endpoint, method, risk; and the policy in force, which the approval would replace
        assertThat(details.getList("collisions[0].diff.path", String.class))
                .contains("/binding/pathTemplate", "/binding/method", "/risk");
        assertThat(details.getList("collisions[0].activePolicy.allowedCallers", String.class)).containsExactly("planner-a");
        assertThat(details.getString("collisions[0].activePolicy.budget.currency")).isEqualTo("EUR");
        assertThat(details.getList("warnings", String.class))
                .anySatisfy(w -> assertThat(w).contains("replaces " + toolId + " from original quotes"));
        // the queue marks it before the reviewer opens it
        assertThat(pending("?source=" + copycat).getString("items[0].collision")).isEqualTo("REPLACES");

        // Not without an explicit confirmation naming the tool (409 names it and its source) ...
        approve(copy, Map.of("policy", LIMITED)).statusCode(409)
                .body("error", allOf(containsString("replaces " + toolId), containsString("original quotes"),
                        containsString("confirmReplace")));
        approve(copy, Map.of("policy", LIMITED, "confirmReplace", host + ":something_else")).statusCode(409)
                .body("error", containsString("replaces " + toolId));
        // ... nor in bulk, where no confirmation can be given ...
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("ids", List.of(copy), "policy", LIMITED)).post("/tools/pending/approve").then()
                .statusCode(200).body("[0].done", equalTo(false)).body("[0].error", containsString("confirmReplace"));
        // ... nor without stating the policy it runs under: the old one is never dropped silently.
        approve(copy, Map.of("confirmReplace", toolId)).statusCode(400)
                .body("error", allOf(containsString("policy"), containsString("planner-a")));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + copy).then().body("status", equalTo("PENDING"));

        // (the copy writes: it runs with a limit, as any tool that changes data must unless the admin accepts none)
        approve(copy, Map.of("confirmReplace", toolId, "policy", Map.of("allowedCallers", List.of("planner-a"),
                "rateLimit", Map.of("perMinute", 60)))).statusCode(200).body("status", equalTo("APPROVED"));
        JsonPath audit = given().header("X-API-Key", VIEWER).queryParam("subjectId", toolId)
                .queryParam("action", "REPLACED").get("/audit").then().statusCode(200).extract().jsonPath();
        assertThat(audit.getList("items")).hasSize(1);
        assertThat(audit.getString("items[0].actor")).isEqualTo("alice");
        assertThat(audit.getString("items[0].before.source")).isEqualTo("original quotes");
        assertThat(audit.getString("items[0].before.policy.budget.currency")).isEqualTo("EUR");
        assertThat(audit.getList("items[0].after.policy.allowedCallers", String.class)).containsExactly("planner-a");
    }

    @Test
    void aVerbAnotherToolServesIsRefusedAtReviewWithTheReason() {
        String suffix = shortId().replaceAll("[0-9]", "x");
        String operationId = "lookUpRate" + suffix;
        String verb = "LOOK_UP_RATE" + suffix.toUpperCase(Locale.ROOT);
        String first = source("first rates", quoteApi("rates-" + suffix + ".example.com", operationId, "get", "/rate"));
        approve(candidateId(first, "GET /rate"), Map.of("policy", Map.of())).statusCode(200);

        // Another host: another tool id, but the same verb, which the capabilities manager gives one tool.
        String second = source("second rates", quoteApi("other-" + suffix + ".example.com", operationId, "get", "/rate"));
        String clash = candidateId(second, "GET /rate");
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + clash).then().statusCode(200)
                .body("collisions[0].kind", equalTo("REFUSED"))
                .body("collisions[0].message", containsString("its verb " + verb + " is already served by"));
        approve(clash, Map.of("policy", Map.of())).statusCode(409)
                .body("error", allOf(containsString("cannot be approved"), containsString(verb),
                        containsString("first rates")));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + clash).then().body("status", equalTo("PENDING"));
    }

    @Test
    void aVerbAnInternalPluginServesIsRefusedAtReviewNeverActiveButUnrunnable() {
        String suffix = shortId().replaceAll("[0-9]", "x");
        String verb = "CONVERT_UNITS" + suffix.toUpperCase(Locale.ROOT);
        String internalId = "toolsmith.units-" + suffix;
        // The librarian knows internal plugins from its catalog (source internal).
        seeder.seed(TestTools.tool(internalId, verb, "Unit converter", "Converts between units of measure.", "toolsmith",
                "units", Risk.READ_ONLY, "value", "from", "to"));

        String source = source("units api", quoteApi("units-" + suffix + ".example.com", "convertUnits" + suffix, "get",
                "/convert"));
        String candidate = candidateId(source, "GET /convert");
        JsonPath details = given().header("X-API-Key", VIEWER).get("/tools/pending/" + candidate).then()
                .statusCode(200).extract().jsonPath();
        assertThat(details.getString("manifest.verb")).isEqualTo(verb);
        assertThat(details.getString("collisions[0].kind")).isEqualTo("REFUSED");
        assertThat(details.getString("collisions[0].toolId")).isEqualTo(internalId);
        assertThat(details.getString("collisions[0].source")).contains("internal plugin");
        assertThat(details.getList("warnings", String.class))
                .anySatisfy(w -> assertThat(w).startsWith("Cannot be approved").contains(internalId));
        assertThat(pending("?source=" + source).getString("items[0].collision")).isEqualTo("REFUSED");

        approve(candidate, Map.of("policy", Map.of())).statusCode(409)
                .body("error", allOf(containsString("internal plugin " + internalId), containsString(verb)));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + candidate).then().body("status", equalTo("PENDING"));
        // it can still be rejected
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON)
                .body(Map.of("reason", "an internal plugin does this")).post("/tools/pending/" + candidate + "/reject")
                .then().statusCode(200).body("status", equalTo("REJECTED"));
    }

    @Test
    void onePageOfTheQueueMarksEachRowWithItsOwnCollisionAsItsReviewDoes() {
        String suffix = shortId().replaceAll("[0-9]", "x");
        String tag = "pagecollide" + suffix;
        String host = "page-" + suffix + ".example.com";
        String operationId = "getPrice" + suffix;
        String original = source(tag + " a original", quoteApi(host, operationId, "get", "/quote"));
        approve(candidateId(original, "GET /quote"), Map.of("policy", Map.of())).statusCode(200);
        source(tag + " b copycat", quoteApi(host, operationId, "post", "/v2/quote"));
        source(tag + " c same verb", quoteApi("other-" + suffix + ".example.com", operationId, "get",
                "/quote"));
        source(tag + " d unrelated", quoteApi("third-" + suffix + ".example.com",
                "countStock" + suffix, "get", "/stock"));

        // the three undecided candidates on one page, so their collisions are looked up together
        JsonPath page = pending("?q=" + tag + "&sort=source&size=25");
        assertThat(page.getList("items.sourceName", String.class))
                .containsExactly(tag + " b copycat", tag + " c same verb", tag + " d unrelated");
        assertThat(page.getString("items[0].collision")).isEqualTo("REPLACES");
        assertThat(page.getString("items[1].collision")).isEqualTo("REFUSED");
        // each row says what its own review says (the single look-up)
        for (int i = 0; i < 3; i++) {
            JsonPath details = given().header("X-API-Key", VIEWER).get("/tools/pending/" + page.getString("items[" + i
                    + "].id")).then().statusCode(200).extract().jsonPath();
            assertThat(page.getString("items[" + i + "].collision")).as("row %d", i)
                    .isEqualTo(details.getString("collisions[0].kind"));
        }
    }

    private static io.restassured.response.ValidatableResponse approve(String candidate, Map<String, Object> body) {
        return given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(body)
                .post("/tools/pending/" + candidate + "/approve").then();
    }

    /** Registers and scans a source serving {@code document}; its id. */
    private static String source(String name, String document) {
        String path = "/collisions-" + UUID.randomUUID() + "/openapi.yaml";
        serve(path, document);
        String id = createSource(Map.of("name", name, "type", "openapi", "url", url(path), "intervalSeconds", 3600))
                .getString("id");
        assertThat(scan(id).getString("status")).isEqualTo("OK");
        return id;
    }

    /** An API on {@code host} with one operation, no authentication. */
    private static String quoteApi(String host, String operationId, String method, String path) {
        return """
                openapi: 3.0.3
                info: {title: 'Quotes', version: '1.0'}
                servers: [{url: 'https://%s/v1'}]
                paths:
                  %s:
                    %s:
                      operationId: %s
                      summary: The current price of a product
                      parameters:
                        - {name: product, in: query, required: true, schema: {type: string}}
                      responses:
                        '200':
                          description: the quote
                          content:
                            application/json:
                              schema: {type: object, properties: {price: {type: number}}}
                """.formatted(host, path, method, operationId);
    }

    private static String shortId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
