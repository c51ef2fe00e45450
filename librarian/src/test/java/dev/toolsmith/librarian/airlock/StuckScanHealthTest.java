package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.createSource;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.url;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.wiremock;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.github.tomakehurst.wiremock.client.WireMock;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A scan is bounded in time: with a 2-second scan timeout (its own surefire execution, see librarian/pom.xml), a source whose document takes 4 seconds to
 * arrive makes the scan worker's liveness check go DOWN, naming the source, while the scan overruns;
 * the scan then stops with the reason on the source (FAILED, not SCANNING for good) and health is UP
 * again.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class StuckScanHealthTest {

    @Test
    void aScanPastItsTimeTurnsLivenessDownNamingTheSourceThenStopsWithTheReason() throws Exception {
        // librarian/pom.xml runs this class in a JVM of its own with a 2 s scan timeout; the fetch timeout
        // of the tests (5 s) lets the slow document arrive after that
        assumeTrue(ConfigProvider.getConfig().getValue("toolsmith.airlock.scan-timeout", Duration.class)
                .equals(Duration.ofSeconds(2)), "runs in the surefire execution short-scan-timeout");
        String path = "/slow-" + UUID.randomUUID() + ".yaml";
        wiremock().stubFor(WireMock.get(WireMock.urlEqualTo(path)).willReturn(WireMock.aResponse()
                .withFixedDelay(4_000).withBody(ManyOperations.document("Slow", 3))));
        String name = "slow source " + UUID.randomUUID();
        String id = createSource(Map.of("name", name, "type", "openapi", "url", url(path))).getString("id");

        CompletableFuture<JsonPath> scan = CompletableFuture.supplyAsync(() -> given().header("X-API-Key", ADMIN)
                .post("/tools/sources/" + id + "/scan").then().statusCode(200).extract().jsonPath());

        await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            JsonPath live = given().get("/q/health/live").then().statusCode(503).extract().jsonPath();
            assertThat(live.getString("checks.find { it.name == 'Source scan worker' }.status")).isEqualTo("DOWN");
            assertThat(live.getMap("checks.find { it.name == 'Source scan worker' }.data").toString())
                    .contains(id).contains(name);
        });

        JsonPath view = scan.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(view.getString("status")).isEqualTo("FAILED");
        assertThat(view.getString("lastError")).contains("did not finish within PT2S")
                .contains("toolsmith.airlock.scan-timeout");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                .get("/q/health/live").then().statusCode(200));
    }
}
