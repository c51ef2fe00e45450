package dev.toolsmith.librarian.search;

import static dev.toolsmith.librarian.TestTools.ADMIN_KEY;
import static dev.toolsmith.librarian.TestTools.PLANNER_B_KEY;
import static dev.toolsmith.librarian.TestTools.PLANNER_KEY;
import static dev.toolsmith.librarian.TestTools.SERVICE_KEY;
import static dev.toolsmith.librarian.TestTools.VIEWER_KEY;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.search.SearchDefaults;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Search and selection over REST, against tools indexed through the real catalog and topic. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class SearchResourceTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static boolean indexed;

    private final ContractCodec codec = new ContractCodec();

    @Inject
    CatalogSeeder seeder;

    @BeforeEach
    void indexTheTools() {
        if (indexed) {
            return;
        }
        for (ToolManifest tool : List.of(TestTools.weather("s.weather"), TestTools.currency("s.currency"),
                TestTools.email("s.email"), TestTools.flight("s.flight"), TestTools.table("s.table"))) {
            assertThat(seeder.seed(tool).newVersion()).isTrue();
        }
        indexed = true;
    }

    @Test
    void aCataloguedToolIsFoundFirstForAParaphraseAndForARawVerb() {
        // Other tests index look-alikes of these tools (same verb) into the same index: the right kind of tool
        // comes first, and this one is among the hits.
        ValidatableResponse umbrella = search(PLANNER_KEY, query("will I need an umbrella in Seattle tomorrow", 5))
                .statusCode(200)
                .header(SearchResource.THRESHOLD_HEADER, String.valueOf(SearchDefaults.SUBSTITUTION_THRESHOLD))
                .body("[0].verb", equalTo("GET_WEATHER_FORECAST"));
        assertThat(umbrella.extract().jsonPath().getList("toolId", String.class)).contains("s.weather");
        ObjectNode byVerb = query("convert an amount between currencies", 5).put("verb", "CONVERT_CURRENCY");
        ValidatableResponse currency = search(VIEWER_KEY, byVerb).statusCode(200)
                .body("[0].verb", equalTo("CONVERT_CURRENCY"));
        assertThat(currency.extract().jsonPath().getList("toolId", String.class)).contains("s.currency");
        List<Double> confidences = currency.extract().jsonPath().getList("confidence", Double.class);
        assertThat(confidences).allSatisfy(c -> assertThat(c).isBetween(0.0, 1.0));
    }

    @Test
    void aCatalogEntryFromAnotherReplicaBecomesSearchable() {
        ToolManifest translate = TestTools.tool("s.translate", "TRANSLATE_TEXT", "Translator",
                "Translates a text from one human language into another, e.g. English to Japanese.", "language",
                "translation", Risk.READ_ONLY, "text", "target_language").withVersion(1, "sha256:other-replica");
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            // No vectors: another model's replica, or an older one; this replica embeds it itself.
            kafka.send(Topics.TOOL_CATALOG, "s.translate", new CatalogEntry("s.translate", Long.MAX_VALUE / 2, 1,
                    CatalogEntry.ACTIVE, translate, List.of(), null, null));
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> search(PLANNER_KEY,
                query("what is 'good morning' in Japanese", 1)).statusCode(200).body("[0].toolId", equalTo("s.translate")));
    }

    @Test
    void filtersNarrowBeforeTheLimitSoTheLimitIsFilled() {
        ObjectNode finance = query("book me a trip to Rome", 1);
        finance.putObject("filters").put("namespace", "finance");
        // Travel tools rank far above finance ones for this text, yet the finance filter still fills the limit.
        search(PLANNER_KEY, finance).statusCode(200).body("size()", equalTo(1))
                .body("[0].verb", equalTo("CONVERT_CURRENCY"));

        ObjectNode readOnly = query("send a message to my boss", 2);
        readOnly.putObject("filters").putArray("risk").add("READ_ONLY");
        List<String> risks = search(PLANNER_KEY, readOnly).statusCode(200).extract().jsonPath().getList("risk");
        assertThat(risks).hasSize(2).containsOnly("READ_ONLY");

        ObjectNode disabledOnly = query("weather", 5);
        disabledOnly.putObject("filters").put("status", "disabled");
        search(PLANNER_KEY, disabledOnly).statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void badInputIsA400ThatNamesTheProblem() {
        search(PLANNER_KEY, query("", 5)).statusCode(400).body("pointer", equalTo("/queryText"));
        search(PLANNER_KEY, query("   ", 5)).statusCode(400).body("pointer", equalTo("/queryText"));
        search(PLANNER_KEY, query("é".repeat(2100), 5)).statusCode(400).body("pointer", equalTo("/queryText"))
                .body("error", containsString("4096"));
        search(PLANNER_KEY, query("x".repeat(5000), 5)).statusCode(400).body("pointer", equalTo("/queryText"));
        search(PLANNER_KEY, query("weather", 0)).statusCode(400).body("pointer", equalTo("/limit"));
        search(PLANNER_KEY, query("weather", 101)).statusCode(400).body("pointer", equalTo("/limit"));

        ObjectNode status = query("weather", 5);
        status.putObject("filters").put("status", "sleeping");
        search(PLANNER_KEY, status).statusCode(400).body("pointer", equalTo("/filters/status"));
        ObjectNode risk = query("weather", 5);
        risk.putObject("filters").putArray("risk").add("HARMLESS");
        search(PLANNER_KEY, risk).statusCode(400).body("pointer", containsString("/filters/risk"));
        ObjectNode namespace = query("weather", 5);
        namespace.putObject("filters").put("namespace", "no-such-namespace");
        search(PLANNER_KEY, namespace).statusCode(400).body("pointer", equalTo("/filters/namespace"))
                .body("error", containsString("no-such-namespace"));
        ObjectNode domain = query("weather", 5);
        domain.putObject("filters").put("domain", "no-such-domain");
        search(PLANNER_KEY, domain).statusCode(400).body("error", containsString("no-such-domain"));
        ObjectNode extra = query("weather", 5);
        extra.putObject("filters").put("colour", "blue");
        search(PLANNER_KEY, extra).statusCode(400).body("error", containsString("colour"));

        given().header("X-API-Key", PLANNER_KEY).contentType(ContentType.JSON).body("[1,2")
                .post("/tools/search").then().statusCode(400);
    }

    @Test
    void anyLanguageOrOddCharactersGiveResultsOrNothingNeverAnError() {
        for (String text : List.of("明天西雅图会下雨吗", "Wie spät ist es in Tokio?", "🌧️☂️🌦️", "\u0007\u001b[31m",
                "\ud800 lone surrogate", "' OR 1=1; DROP TABLE catalog_tool; --", "%s%n%x{}[]\\\\", "\u202e\u200b\ufeff",
                "a".repeat(4096))) {
            search(PLANNER_KEY, query(text, 10)).statusCode(200);
        }
        // a NUL is the one character no text may hold (PostgreSQL refuses it): a 400 naming where it is
        search(PLANNER_KEY, query("\u0000 rain", 10)).statusCode(400)
                .body("pointer", equalTo("/queryText"));
    }

    @Test
    void aCallerOnlySeesTheToolsItsAccessAllows() {
        ToolManifest secret = TestTools.tool("s.payroll", "RUN_PAYROLL", "Payroll",
                "Pays the salaries of all employees for the month.", "hr", "payroll", Risk.WRITE_REMOTE, "month");
        ToolManifest open = TestTools.tool("s.holidays", "LIST_HOLIDAYS", "Public holidays",
                "Lists the public holidays of a country for a year, for planning payroll.", "hr", "calendar",
                Risk.READ_ONLY, "country", "year");
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.TOOL_CATALOG, secret.id(), new CatalogEntry(secret.id(), Long.MAX_VALUE / 2, 1,
                    CatalogEntry.ACTIVE, secret.withVersion(1, "sha256:x"), List.of("planner-b"), null, null));
            kafka.send(Topics.TOOL_CATALOG, open.id(), new CatalogEntry(open.id(), Long.MAX_VALUE / 2, 1,
                    CatalogEntry.ACTIVE, open.withVersion(1, "sha256:y"), List.of(), null, null));
        }
        ObjectNode payroll = query("pay the employees' salaries", 2);
        payroll.putObject("filters").put("namespace", "hr");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> search(PLANNER_B_KEY, payroll).statusCode(200)
                .body("[0].toolId", equalTo("s.payroll")).body("size()", equalTo(2)));
        // planner-a may not use payroll: it is filtered before ranking, and the limit is still filled.
        List<String> seenByA = search(PLANNER_KEY, payroll).statusCode(200).extract().jsonPath().getList("toolId");
        assertThat(seenByA).contains("s.holidays").doesNotContain("s.payroll");
        // A service searching for planner-b sees what planner-b sees; a planner cannot claim to be someone else.
        search(SERVICE_KEY, payroll.deepCopy().put("caller", "planner-b")).statusCode(200)
                .body("[0].toolId", equalTo("s.payroll"));
        List<String> claimed = search(PLANNER_KEY, payroll.deepCopy().put("caller", "planner-b")).statusCode(200)
                .extract().jsonPath().getList("toolId");
        assertThat(claimed).doesNotContain("s.payroll");
    }

    @Test
    void selectReturnsTheCoreToolsThenTheBestMatchesWithinTheTokenBudget() {
        ObjectNode request = JSON.objectNode().put("message", "fly to Berlin on Friday and book dinner for four")
                .put("tokenBudget", 2000);
        request.putArray("coreTools").add("s.email").add("s.unknown");
        ValidatableResponse answer = select(PLANNER_KEY, request).statusCode(200)
                .body("tools[0].toolId", equalTo("s.email")).body("unavailableCoreTools[0]", equalTo("s.unknown"));
        List<String> ids = answer.extract().jsonPath().getList("tools.toolId");
        assertThat(ids).contains("s.flight", "s.table");
        int used = answer.extract().jsonPath().getInt("tokensUsed");
        List<Integer> each = answer.extract().jsonPath().getList("tools.tokens", Integer.class);
        assertThat(used).isLessThanOrEqualTo(2000).isEqualTo(each.stream().mapToInt(Integer::intValue).sum());

        // A budget that fits one tool: the answer stays within it and says how many were left out.
        int oneTool = each.get(0);
        request.put("tokenBudget", oneTool + 5);
        ValidatableResponse tight = select(PLANNER_KEY, request).statusCode(200).body("tools.size()", equalTo(1))
                .body("tools[0].toolId", equalTo("s.email"));
        assertThat(tight.extract().jsonPath().getInt("tokensUsed")).isLessThanOrEqualTo(oneTool + 5);
        assertThat(tight.extract().jsonPath().getInt("omitted")).isGreaterThan(0);

        select(PLANNER_KEY, JSON.objectNode().put("message", "").put("tokenBudget", 10)).statusCode(400)
                .body("pointer", equalTo("/message"));
        select(PLANNER_KEY, JSON.objectNode().put("message", "hi").put("tokenBudget", 0)).statusCode(400)
                .body("pointer", equalTo("/tokenBudget"));
        select(PLANNER_KEY, JSON.objectNode().put("message", "hi").put("tokenBudget", "lots")).statusCode(400)
                .body("pointer", equalTo("/tokenBudget"));
        select(PLANNER_KEY, JSON.objectNode().put("message", "hi")).statusCode(400).body("pointer", equalTo("/tokenBudget"));
    }

    @Test
    void searchTimesArePublishedAsMetrics() {
        search(PLANNER_KEY, query("weather tomorrow", 1)).statusCode(200);
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("toolsmith_librarian_search_seconds_count"))
                .body(containsString("toolsmith_librarian_search_seconds{quantile=\"0.99\""));
    }

    @Test
    void searchAndSelectNeedACredential() {
        given().contentType(ContentType.JSON).body(query("weather", 1).toString()).post("/tools/search").then()
                .statusCode(401);
        given().contentType(ContentType.JSON).body("{\"message\":\"hi\",\"tokenBudget\":10}").post("/tools/select")
                .then().statusCode(401);
        search(ADMIN_KEY, query("weather", 1)).statusCode(200);
    }

    private static ObjectNode query(String text, int limit) {
        return JSON.objectNode().put("queryText", text).put("limit", limit);
    }

    private static ValidatableResponse search(String key, ObjectNode body) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON).body(body.toString())
                .post("/tools/search").then();
    }

    private static ValidatableResponse select(String key, ObjectNode body) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON).body(body.toString())
                .post("/tools/select").then();
    }
}
