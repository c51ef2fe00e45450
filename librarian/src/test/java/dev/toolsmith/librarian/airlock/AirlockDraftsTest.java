package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.pending;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.librarian.airlock.candidate.PendingIndex;
import dev.toolsmith.librarian.airlock.draft.DraftIntake;
import dev.toolsmith.librarian.airlock.review.CandidateViews;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Find-or-build drafts from the engineer ({@code POST /tools/pending/drafts}) against the real database:
 * only services file them, bad drafts are refused by name, a gap has one draft however often it is
 * delivered, and a draft waits in the queue tagged with its gap but can never be approved.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class AirlockDraftsTest {

    private static final String SERVICE = TestTools.SERVICE_KEY;
    /** The caller the test configuration gives the service key. */
    private static final String SERVICE_CALLER = "capabilities-manager";

    @Inject
    PendingIndex pendingIndex;

    @Test
    void aGapHasOneDraftTaggedWithItThatCanBeRejectedButNeverApproved() throws Exception {
        String gap = "book ferry " + UUID.randomUUID();
        recordGap(gap);

        JsonPath created = post(SERVICE, draft(gap, "Books a ferry crossing on a route for a date.")).statusCode(201)
                .body("outcome", equalTo("CREATED")).body("status", equalTo("PENDING")).body("revision", equalTo(1))
                .extract().jsonPath();
        String id = created.getString("id");

        // the engineer re-sends a draft whose delivery it could not confirm: nothing changes
        post(SERVICE, draft(gap, "Books a ferry crossing on a route for a date.")).statusCode(200)
                .body("outcome", equalTo("UNCHANGED")).body("id", equalTo(id));

        JsonPath queue = pending("?gap=" + gap);
        assertThat(queue.getList("items.id", String.class)).containsExactly(id);
        assertThat(queue.getString("items[0].draftGap")).isEqualTo(gap);
        assertThat(queue.getString("items[0].sourceName")).isEqualTo(CandidateViews.DRAFT_SOURCE_NAME);
        assertThat(queue.getList("items[0].gaps", String.class)).containsExactly(gap);
        assertThat(queue.getString("items[0].verb")).isEqualTo("BOOK_FERRY");

        given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then().statusCode(200)
                .body("draftGap", equalTo(gap)).body("manifest.binding", equalTo(null))
                .body("warnings[0]", containsString("cannot be approved"))
                .body("manifest.contentHash", org.hamcrest.Matchers.startsWith("sha256-jcs:"));

        // a changed draft replaces the undecided one in place
        post(SERVICE, draft(gap, "Reserves seats on a ferry crossing for a route and a date.")).statusCode(200)
                .body("outcome", equalTo("UPDATED")).body("id", equalTo(id)).body("revision", equalTo(1));
        assertThat(pending("?gap=" + gap + "&status=ALL").getList("items.id", String.class)).containsExactly(id);
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then()
                .body("manifest.description", equalTo("Reserves seats on a ferry crossing for a route and a date."));

        // never approved, alone or in bulk: it has no binding, nothing could be built
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of())
                .post("/tools/pending/" + id + "/approve").then().statusCode(409)
                .body("error", containsString("LLM draft")).body("error", containsString("cannot be approved"));
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("ids", List.of(id)))
                .post("/tools/pending/approve").then().statusCode(200)
                .body("[0].done", equalTo(false)).body("[0].error", containsString("LLM draft"));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then().body("status", equalTo("PENDING"));

        // filed and updated by the service, in the audit log; admins were told
        given().header("X-API-Key", VIEWER).get("/audit?action=DRAFT_FILED&subjectId=" + id).then().statusCode(200)
                .body("total", equalTo(2)).body("items.actor", org.hamcrest.Matchers.everyItem(equalTo(SERVICE_CALLER)));
        given().header("X-API-Key", VIEWER).get("/notifications?size=200").then().statusCode(200)
                .body("items.findAll { it.kind == 'NEW_PENDING_TOOLS' }.subjectId", hasItem(id));

        // the gap lists its draft
        List<Map<String, Object>> gaps = given().header("X-API-Key", VIEWER).get("/gaps?size=200").then()
                .statusCode(200).extract().jsonPath().getList("items");
        Map<String, Object> listed = gaps.stream().filter(g -> gap.equals(g.get("normalizedVerb"))).findFirst()
                .orElseThrow();
        assertThat(((Map<?, ?>) listed.get("draft")).get("candidateId")).isEqualTo(id);

        // find-or-build's search over the queue never offers a draft as a match
        pendingIndex.sync();
        assertThat(pendingIndex.search(new ToolQuery("reserve seats on a ferry crossing", "BOOK_FERRY",
                List.of("route", "date"), null, null, 50, RetrievalMode.HYBRID)).hits())
                .noneMatch(hit -> hit.toolId().equals(id));

        // an admin may reject it; the same draft again leaves the decision alone, a new one is the next revision
        given().header("X-API-Key", ADMIN).contentType(ContentType.JSON).body(Map.of("reason", "we will not book ferries"))
                .post("/tools/pending/" + id + "/reject").then().statusCode(200).body("status", equalTo("REJECTED"));
        post(SERVICE, draft(gap, "Reserves seats on a ferry crossing for a route and a date.")).statusCode(200)
                .body("outcome", equalTo("UNCHANGED")).body("status", equalTo("REJECTED"));
        String next = post(SERVICE, draft(gap, "Books ferry tickets between two ports on a date.")).statusCode(201)
                .body("outcome", equalTo("CREATED")).body("revision", equalTo(2)).extract().path("id");
        assertThat(next).isNotEqualTo(id);
    }

    @Test
    void onlyServicesFileDraftsAndEveryBadDraftIsRefusedByName() {
        String gap = "charter boat " + UUID.randomUUID();
        Map<String, Object> good = draft(gap, "Charters a boat with a skipper for a day.");

        given().contentType(ContentType.JSON).body(good).post("/tools/pending/drafts").then().statusCode(401);
        post(ADMIN, good).statusCode(403);
        post(VIEWER, good).statusCode(403);
        // the airlock UI's service key acting for a person holds only that person's roles
        given().header("X-API-Key", SERVICE).header("X-Toolsmith-User", "mallory").header("X-Toolsmith-Roles", "admin,service")
                .contentType(ContentType.JSON).body(good).post("/tools/pending/drafts").then().statusCode(403);

        given().header("X-API-Key", SERVICE).contentType(ContentType.JSON).body("{not json")
                .post("/tools/pending/drafts").then().statusCode(400);
        post(SERVICE, without(good, "normalizedVerb")).statusCode(400).body("error", containsString("normalizedVerb"));
        // wrong shapes are named too, never a 500
        given().header("X-API-Key", SERVICE).contentType(ContentType.JSON).post("/tools/pending/drafts").then()
                .statusCode(400).body("error", containsString("body is missing"));
        post(SERVICE, List.of(good)).statusCode(400).body("error", containsString("not valid JSON"));
        Map<String, Object> inputsAsText = new HashMap<>(good);
        inputsAsText.put("inputNames", "route");
        post(SERVICE, inputsAsText).statusCode(400).body("error", containsString("not valid JSON"))
                .body("pointer", equalTo("/inputNames"));
        Map<String, Object> blankInput = new HashMap<>(good);
        blankInput.put("inputNames", java.util.Arrays.asList("route", null));
        post(SERVICE, blankInput).statusCode(400).body("error", containsString("inputNames[1]"));
        Map<String, Object> manifestAsText = new HashMap<>(good);
        manifestAsText.put("manifest", "draft:book_ferry");
        post(SERVICE, manifestAsText).statusCode(400).body("pointer", equalTo("/manifest"));
        post(SERVICE, withManifest(good, "inputSchema", "object")).statusCode(400)
                .body("pointer", org.hamcrest.Matchers.startsWith("/manifest"));
        Map<String, Object> longVerb = new HashMap<>(good);
        longVerb.put("normalizedVerb", "v".repeat(DraftIntake.MAX_VERB + 1));
        post(SERVICE, longVerb).statusCode(400).body("error", containsString("normalizedVerb: longer than"));
        post(SERVICE, without(good, "manifest")).statusCode(400).body("pointer", equalTo("/manifest"));
        post(SERVICE, withManifest(good, "verb", "1 BAD VERB")).statusCode(400)
                .body("pointer", equalTo("/manifest/verb"));
        post(SERVICE, withManifest(good, "id", "boats:charter")).statusCode(400)
                .body("error", containsString("must start with 'draft:'"));
        post(SERVICE, withManifest(good, "binding", Map.of("method", "GET", "serverUrl", "https://evil.example.net",
                "pathTemplate", "/x", "parameters", List.of(), "bodyEncoding", "NONE",
                "auth", Map.of("scheme", "NONE")))).statusCode(400)
                .body("error", containsString("must not carry an HTTP binding"));
        post(SERVICE, withManifest(good, "inputSchema", Map.of("type", "object", "properties",
                Map.of("route", Map.of("type", "strung"))))).statusCode(400)
                .body("error", containsString("input schema is not valid JSON Schema"));
        Map<String, Object> moreInputs = new HashMap<>(good);
        moreInputs.put("inputNames", List.of("route", "date", "passengers"));
        post(SERVICE, moreInputs).statusCode(400).body("error", containsString("[passengers]"));

        assertThat(pending("?gap=" + gap + "&status=ALL").getList("items")).isEmpty();
    }

    static ValidatableResponse post(String key, Object body) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON).body(body)
                .post("/tools/pending/drafts").then();
    }

    /** The body the engineer's LibrarianDrafts sends, with a manifest as its DraftManifest builds one. */
    static Map<String, Object> draft(String gap, String description) {
        Map<String, Object> manifest = new HashMap<>();
        manifest.put("id", "draft:book_ferry");
        manifest.put("verb", "BOOK_FERRY");
        manifest.put("name", "book_ferry");
        manifest.put("description", description);
        manifest.put("namespace", "draft");
        manifest.put("tags", List.of("draft", "gap:" + gap));
        manifest.put("inputSchema", Map.of("type", "object", "required", List.of("route", "date"), "properties",
                Map.of("route", Map.of("type", "string"), "date", Map.of("type", "string", "format", "date"))));
        manifest.put("outputSchema", Map.of("type", "object", "properties",
                Map.of("bookingReference", Map.of("type", "string"))));
        manifest.put("risk", "WRITE_REMOTE");
        manifest.put("healthProbe", Map.of("unavailableReason", "a draft has no HTTP binding: add a source that offers it"));
        manifest.put("version", 0);
        Map<String, Object> body = new HashMap<>();
        body.put("normalizedVerb", gap);
        body.put("actionVerb", "BOOK_FERRY");
        body.put("description", "book a ferry to the island");
        body.put("inputNames", List.of("route", "date"));
        body.put("manifest", manifest);
        return body;
    }

    private static Map<String, Object> without(Map<String, Object> body, String field) {
        Map<String, Object> copy = new HashMap<>(body);
        copy.remove(field);
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withManifest(Map<String, Object> body, String field, Object value) {
        Map<String, Object> manifest = new HashMap<>((Map<String, Object>) body.get("manifest"));
        manifest.put(field, value);
        Map<String, Object> copy = new HashMap<>(body);
        copy.put("manifest", manifest);
        return copy;
    }

    /** The gap as the librarian's own gap listener records it (the engineer's draft may arrive first or later). */
    private static void recordGap(String gap) throws Exception {
        try (Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_librarian"),
                PostgresTestResource.user(), PostgresTestResource.password());
                PreparedStatement insert = db.prepareStatement("INSERT INTO librarian.airlock_gap (normalized_verb,"
                        + " action_verb, description, input_names, times_seen, first_seen_at, last_seen_at)"
                        + " VALUES (?, 'BOOK_FERRY', 'book a ferry to the island', '[\"route\",\"date\"]', 99, ?, ?)")) {
            Timestamp now = Timestamp.from(Instant.now());
            insert.setString(1, gap);
            insert.setTimestamp(2, now);
            insert.setTimestamp(3, now);
            insert.executeUpdate();
        }
    }
}
