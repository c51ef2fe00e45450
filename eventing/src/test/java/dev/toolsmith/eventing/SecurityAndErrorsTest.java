package dev.toolsmith.eventing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class SecurityAndErrorsTest {

    @Test
    void aCallWithoutCredentialsIsUnauthorized() {
        given().when().get("/probe/read").then().statusCode(401).header("WWW-Authenticate", containsString("Bearer"));
    }

    @Test
    void anUnknownKeyIsUnauthorized() {
        given().header("X-API-Key", "guessed").when().get("/probe/read").then().statusCode(401);
    }

    @Test
    void aKnownKeyAuthenticatesByHeaderOrBearerToken() {
        given().header("X-API-Key", "admin-key").when().get("/probe/admin").then().statusCode(200)
                .body(equalTo("alice [admin]"));
        given().header("Authorization", "Bearer viewer-key").when().get("/probe/read").then().statusCode(200)
                .body(equalTo("victor [viewer]"));
    }

    @Test
    void theWrongRoleIsForbidden() {
        given().header("X-API-Key", "viewer-key").when().get("/probe/admin").then().statusCode(403);
        given().header("X-API-Key", "planner-key").when().get("/probe/read").then().statusCode(403);
    }

    @Test
    void aServiceActsForAPersonWithDelegableRolesOnly() {
        given().header("X-API-Key", "ui-key").header("X-Toolsmith-User", "bob")
                .header("X-Toolsmith-Roles", "viewer,planner,service")
                .when().get("/probe/read").then().statusCode(200).body(equalTo("bob [viewer]"));
    }

    @Test
    void onlyAServiceMayActForSomeoneElse() {
        given().header("X-API-Key", "viewer-key").header("X-Toolsmith-User", "mallory")
                .header("X-Toolsmith-Roles", "admin")
                .when().get("/probe/admin").then().statusCode(403);
    }

    @Test
    void aMessageThatBreaksItsContractIsA400NamingTheField() {
        given().header("X-API-Key", "planner-key").contentType("application/json")
                .body("{\"stepId\":\"s1\",\"planId\":\"p1\"}")
                .when().post("/probe/steps").then().statusCode(400)
                .body("pointer", equalTo("/actionVerb"))
                .body("error", containsString("actionVerb"));
    }

    @Test
    void aBodyOfTheWrongShapeIsA400NamingTheField() {
        given().header("X-API-Key", "planner-key").contentType("application/json")
                .body("{\"name\":\"n\",\"lines\":[{\"sku\":\"a\",\"quantity\":\"many\"}]}")
                .when().post("/probe/orders").then().statusCode(400)
                .body("pointer", equalTo("/lines/0/quantity"))
                .body("error", containsString("not valid JSON for this request at /lines/0/quantity"));
        given().header("X-API-Key", "planner-key").contentType("application/json").body("[1, 2]")
                .when().post("/probe/orders").then().statusCode(400)
                .body("error", containsString("not valid JSON for this request"));
        given().header("X-API-Key", "planner-key").contentType("application/json").body("{\"name\":\"n\"}")
                .when().post("/probe/orders").then().statusCode(200);
    }

    @Test
    void anOversizedBodyIs413() {
        given().header("X-API-Key", "planner-key").contentType("application/json")
                .body("{\"stepId\":\"" + "x".repeat(1_100_000) + "\"}")
                .when().post("/probe/steps").then().statusCode(413);
    }
}
