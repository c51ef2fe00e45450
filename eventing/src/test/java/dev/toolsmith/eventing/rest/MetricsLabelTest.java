package dev.toolsmith.eventing.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A caller cannot add Prometheus series by inventing paths: the uri label is an endpoint's template or one of
 * Quarkus' fixed values (eventing's shared metrics settings).
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class MetricsLabelTest {

    @Test
    void madeUpPathsDoNotBecomeUriLabels() {
        String marker = "made-up-" + UUID.randomUUID();
        given().get("/" + marker).then().statusCode(404);
        given().header("X-API-Key", "guessed").get("/probe/" + marker).then().statusCode(401);
        given().header("X-API-Key", "planner-key").get("/" + marker).then().statusCode(404);
        given().header("X-API-Key", "planner-key").get("/probe/items/" + marker + "?size=abc").then().statusCode(400);
        given().header("X-API-Key", "planner-key").get("/probe/items/" + marker).then().statusCode(200);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("http_server_requests_seconds_count").doesNotContain(marker);
        assertThat(metrics).contains("uri=\"/probe/items/{id}\"");
    }
}
