package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.candidateId;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.petApi;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.scan;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The reviewer is warned, on the candidate the UI's review page reads, when a tool's server URL is the
 * cloud metadata service (it can never run) or a loopback, private or internal address.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class ServerWarningsReviewTest {

    private static JsonPath reviewOf(String serverUrl) {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        String path = "/server-warnings-" + tag + "/openapi.yaml";
        serve(path, petApi("Shop " + tag, "All pets").replace("https://pets.example.com/v1", serverUrl));
        String source = createSource(Map.of("name", "shop " + tag, "type", "openapi", "url", url(path)))
                .getString("id");
        scan(source);
        return given().header("X-API-Key", VIEWER).get("/tools/pending/" + candidateId(source, "GET /pets"))
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aCandidateOnTheMetadataServiceIsFlaggedAsUnrunnable() {
        JsonPath review = reviewOf("http://169.254.169.254/latest");

        assertThat(review.getList("serverWarnings.code", String.class)).containsExactly("METADATA_SERVER");
        assertThat(review.getString("serverWarnings[0].url")).isEqualTo("http://169.254.169.254/latest");
        String message = review.getString("serverWarnings[0].message");
        assertThat(message).contains("link-local/cloud metadata", "refuses to call it in every mode");
        assertThat(review.getList("warnings", String.class)).contains(message);
    }

    @Test
    void candidatesOnPrivateOrLoopbackServersAreFlagged() {
        assertThat(reviewOf("http://10.0.0.5:8080/v1").getList("serverWarnings.code", String.class))
                .containsExactly("PRIVATE_SERVER");
        JsonPath loopback = reviewOf("http://localhost:9000/v1");
        assertThat(loopback.getList("serverWarnings.code", String.class)).containsExactly("PRIVATE_SERVER");
        assertThat(loopback.getString("serverWarnings[0].message")).contains("a loopback address (localhost)");
    }

    @Test
    void aCandidateOnAPublicServerCarriesNoServerWarning() {
        assertThat(reviewOf("https://pets-" + UUID.randomUUID().toString().substring(0, 8) + ".example.com/v1")
                .getList("serverWarnings", Map.class)).isEqualTo(List.of());
    }
}
