package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.TestTools.ADMIN_KEY;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 19 "Policies": an approval body that does not say exactly what it seems to is refused with a 400
 * naming the field, before any candidate is looked up (the id here exists nowhere).
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class ApprovalBodyTest {

    @Test
    void aFractionalQuotaIsNotRoundedDown() {
        refused("{\"policy\":{\"quota\":{\"perDay\":1.5}}}", "/policy/quota/perDay", "whole number");
    }

    @Test
    void aNumberIsNotASecret() {
        refused("{\"policy\":{\"secrets\":{\"api_key\":42}}}", "/policy/secrets/api_key", "string");
    }

    @Test
    void anUnknownFieldIsNamed() {
        refused("{\"policy\":{\"rateLimt\":{\"perSecond\":1}}}", "/policy/rateLimt", "unknown field 'rateLimt'");
    }

    @Test
    void aNullCallerAndAnEmptyRateLimitAreRefused() {
        refused("{\"policy\":{\"allowedCallers\":[null]}}", "/policy/allowedCallers/0", "found null");
        refused("{\"policy\":{\"rateLimit\":{}}}", "/policy/rateLimit", "needs perSecond or perMinute");
        refused("{\"policy\":{\"quota\":{\"perDay\":500,\"perMonth\":100}}}", "/policy/quota/perMonth",
                "cannot be smaller");
    }

    @Test
    void trailingGarbageIsNotIgnored() {
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body("{\"policy\":{}} {\"x\":1}")
                .post("/tools/pending/" + UUID.randomUUID() + "/approve").then().statusCode(400)
                .body("error", containsString("not valid JSON"));
    }

    private static void refused(String body, String pointer, String problem) {
        given().header("X-API-Key", ADMIN_KEY).contentType(ContentType.JSON).body(body)
                .post("/tools/pending/" + UUID.randomUUID() + "/approve").then().statusCode(400)
                .body("pointer", equalTo(pointer)).body("error", containsString(problem));
    }
}
