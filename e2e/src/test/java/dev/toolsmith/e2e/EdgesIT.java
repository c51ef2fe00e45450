package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input at the edges of the running platform: refused with the right status, services unharmed. */
@ExtendWith(Platform.class)
class EdgesIT {

    @ParameterizedTest
    @ValueSource(strings = {Platform.LIBRARIAN_PORT + "", Platform.CAPABILITIES_PORT + "", Platform.ENGINEER_PORT + ""})
    void everyServiceIsHealthyAndServesItsContract(String port) {
        given().get("http://127.0.0.1:" + port + "/q/health/ready").then().statusCode(200);
        given().accept("application/json").get("http://127.0.0.1:" + port + "/q/openapi").then().statusCode(200);
    }

    @Test
    void unauthenticatedCallsGet401() {
        given().contentType("application/json").body("{\"queryText\":\"weather\"}")
                .post(Platform.librarian() + "/tools/search").then().statusCode(401);
        given().contentType("application/json").body("{}")
                .post(Platform.capabilities() + "/steps").then().statusCode(401);
        given().get(Platform.engineer() + "/builds").then().statusCode(401);
    }

    @Test
    void oversizedBodiesGet413() {
        String huge = "{\"queryText\":\"" + "x".repeat(2_000_000) + "\"}";
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.librarian() + "/tools/search").then().statusCode(413);
        given().header("X-API-Key", Platform.get().plannerKey()).contentType("application/json").body(huge)
                .post(Platform.capabilities() + "/steps").then().statusCode(413);
    }
}
