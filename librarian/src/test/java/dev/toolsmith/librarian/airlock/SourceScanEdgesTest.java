package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.serve;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.path.json.JsonPath;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Hostile edges of a scan: a document near the operation limit is scanned to the end ("scan now" answers
 * with every operation filed, and no database session sits idle in a transaction while the scan waits
 * for anything; the durations are printed for docs/benchmarks.md, not asserted), and a document with
 * one unresolvable external {@code $ref} still gives every operation that does not need it, the others
 * listed on the source with the reason.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class SourceScanEdgesTest {

    /** Far beyond a healthy scan of 1,500 operations; a hung scan never answers. */
    private static final int ANSWER_WITHIN_MS = 240_000;

    @Test
    void aDocumentOf1500OperationsIsScannedCompletelyWithoutATransactionLeftIdle() throws Exception {
        try (IdleTransactionWatch watch = new IdleTransactionWatch("toolsmith_test_librarian", 5_000)) {
            long small = scanned(300);
            long large = scanned(1_500);
            System.out.printf("scan of 300 operations: %d ms; of 1,500 operations: %d ms%n", small, large);
            assertThat(watch.offenders()).as("sessions idle in a transaction for more than 5 s").isEmpty();
        }
    }

    @Test
    void anUnresolvableExternalRefCostsOnlyTheOperationsThatNeedItAndTheSourceListsThem() {
        String path = "/half-" + UUID.randomUUID() + ".yaml";
        serve(path, """
                openapi: 3.0.3
                info: {title: Half There, version: '1'}
                servers: [{url: 'https://half.example.com'}]
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      responses: {'200': {description: pets}}
                  /owners:
                    get:
                      operationId: listOwners
                      responses:
                        '200':
                          description: owners
                          content:
                            application/json:
                              schema: {$ref: 'http://169.254.169.254/latest/owner.yaml#/Owner'}
                """);
        String id = createSource(Map.of("name", "half there", "type", "openapi", "url", url(path))).getString("id");

        JsonPath view = AirlockFixtures.scan(id);

        assertThat(view.getString("status")).as(view.prettify()).isEqualTo("OK");
        assertThat(view.getInt("counts.found")).isEqualTo(1);
        assertThat(view.getInt("counts.skipped")).isEqualTo(1);
        assertThat(view.getList("skipped", String.class)).singleElement().asString()
                .startsWith("GET /owners: depends on an external $ref that cannot be resolved")
                .contains("169.254.169.254");
        assertThat(AirlockFixtures.pending("?source=" + id + "&status=ALL&size=10").getList("items.operationKey"))
                .containsExactly("GET /pets");
    }

    /** Registers a source serving a document of {@code operations}, scans it and returns how long it took. */
    private static long scanned(int operations) {
        String path = "/many-" + operations + "-" + UUID.randomUUID() + ".yaml";
        serve(path, ManyOperations.document("Many " + operations, operations));
        String id = createSource(Map.of("name", "many " + operations, "type", "openapi", "url", url(path)))
                .getString("id");
        long start = System.nanoTime();
        JsonPath view = given().config(RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", ANSWER_WITHIN_MS).setParam("http.connection.timeout", 5_000)))
                .header("X-API-Key", ADMIN).post("/tools/sources/" + id + "/scan")
                .then().statusCode(200).extract().jsonPath();
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(view.getString("status")).as(view.prettify()).isEqualTo("OK");
        assertThat(view.getInt("counts.found")).isEqualTo(operations);
        // the scheduler may have scanned it first (then "scan now" found it unchanged): count what is filed
        assertThat(AirlockFixtures.pending("?source=" + id + "&status=ALL&size=1").getInt("total"))
                .isEqualTo(operations);
        return millis;
    }
}
