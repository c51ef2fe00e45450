package dev.toolsmith.librarian.airlock;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.librarian.catalog.IndexOutcome;
import dev.toolsmith.testsupport.FirstVersionHash;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Rows stored before content hashes were versioned ({@code sha256:}) read as unchanged when the same content comes
 * again with its new {@code sha256-jcs:} hash, in the catalog, the review queue of a source and the draft queue;
 * content RFC 8785 cannot hash is a 400 naming the field.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class HashVersionsTest {

    private static final String SERVICE = TestTools.SERVICE_KEY;
    private static final String VIEWER = TestTools.VIEWER_KEY;

    /** A row from before carries its hash twice: in its column and in the manifest it stores. */
    private static final String MANIFEST_HASH = "manifest = jsonb_set(manifest, '{contentHash}', to_jsonb(CAST(? AS text)))";

    private final ObjectMapper json = new ContractCodec().mapper();

    @Inject
    CatalogSeeder seeder;

    @Test
    void aCatalogVersionHashedBeforeIsNotChangedByTheSameContent() throws Exception {
        ToolManifest tool = TestTools.weather("hashes.weather-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(seeder.seed(tool).version()).isEqualTo(1);
        String firstVersion = FirstVersionHash.of(tool, json);
        update("UPDATE librarian.catalog_tool_version SET content_hash = ?, " + MANIFEST_HASH + " WHERE tool_id = ?",
                firstVersion, firstVersion, tool.id());

        IndexOutcome same = seeder.seed(tool);
        assertThat(same.newVersion()).isFalse();
        assertThat(same.version()).isEqualTo(1);
        assertThat(same.contentHash()).isEqualTo(firstVersion);

        ToolManifest changed = TestTools.tool(tool.id(), "GET_WEATHER_FORECAST", "Weather forecast",
                "Hourly weather forecast for a city.", "weather", "forecast", tool.risk(), "city", "date");
        IndexOutcome next = seeder.seed(changed);
        assertThat(next.version()).isEqualTo(2);
        assertThat(next.contentHash()).isEqualTo(ContentHash.of(changed, json)).startsWith("sha256-jcs:");
    }

    @Test
    void aCandidateHashedBeforeIsUnchangedByARescan() throws Exception {
        String path = "/hash-versions-" + UUID.randomUUID() + "/openapi.yaml";
        AirlockFixtures.serve(path, AirlockFixtures.petApi("Hashed Shop", "All pets")
                .replace("pets.example.com", "hashed.example.com").replace("operationId: listPets", "operationId: listHashedPets"));
        String source = AirlockFixtures.createSource(Map.of("name", "hashed shop", "type", "openapi",
                "url", AirlockFixtures.url(path))).getString("id");
        AirlockFixtures.scan(source);
        String id = AirlockFixtures.candidateId(source, "GET /pets");
        ToolManifest filed = json.convertValue(given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then()
                .statusCode(200).extract().jsonPath().getMap("manifest"), ToolManifest.class);
        assertThat(ContentHash.matches(filed.contentHash(), filed, json)).as("the view shows the filed manifest").isTrue();
        String firstVersion = FirstVersionHash.of(filed, json);
        update("UPDATE librarian.airlock_candidate SET content_hash = ?, " + MANIFEST_HASH
                + " WHERE id = CAST(? AS uuid)", firstVersion, firstVersion, id);

        assertThat(AirlockFixtures.scan(source).getInt("counts.changed")).isZero();
        assertThat(AirlockFixtures.candidateId(source, "GET /pets")).isEqualTo(id);
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then()
                .body("manifest.contentHash", equalTo(firstVersion)).body("revision", equalTo(1));
    }

    @Test
    void aDraftHashedBeforeIsUnchangedWhenFiledAgain() throws Exception {
        String gap = "hash versions " + UUID.randomUUID();
        Map<String, Object> draft = AirlockDraftsTest.draft(gap, "Books a ferry crossing on a route for a date.");
        String id = AirlockDraftsTest.post(SERVICE, draft).statusCode(201).body("outcome", equalTo("CREATED"))
                .extract().path("id");
        String firstVersion = FirstVersionHash.of(json.convertValue(draft.get("manifest"), ToolManifest.class), json);
        update("UPDATE librarian.airlock_candidate SET content_hash = ?, " + MANIFEST_HASH
                + " WHERE id = CAST(? AS uuid)", firstVersion, firstVersion, id);

        AirlockDraftsTest.post(SERVICE, draft).statusCode(200).body("outcome", equalTo("UNCHANGED"))
                .body("id", equalTo(id));
        given().header("X-API-Key", VIEWER).get("/tools/pending/" + id).then().statusCode(200)
                .body("manifest.contentHash", equalTo(firstVersion));
    }

    @Test
    void aLoneSurrogateInADraftIsA400NamingTheField() throws Exception {
        Map<String, Object> draft = AirlockDraftsTest.draft("lone surrogate " + UUID.randomUUID(), "Books a ferry LONE.");
        // a JSON escape of half a surrogate pair: valid JSON text, no Unicode text
        String body = json.writeValueAsString(draft).replace("LONE", "\\ud800");
        given().header("X-API-Key", SERVICE).contentType(ContentType.JSON).body(body)
                .post("/tools/pending/drafts").then().statusCode(400)
                .body("error", containsString("lone UTF-16 surrogate"))
                .body("error", containsString("field /manifest/description: a string holds a lone UTF-16 surrogate"))
                .body("pointer", equalTo("/manifest/description"));
    }

    private static void update(String sql, String... parameters) throws SQLException {
        try (Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_librarian"),
                PostgresTestResource.user(), PostgresTestResource.password());
                PreparedStatement statement = db.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            assertThat(statement.executeUpdate()).as(sql).isEqualTo(1);
        }
    }
}
