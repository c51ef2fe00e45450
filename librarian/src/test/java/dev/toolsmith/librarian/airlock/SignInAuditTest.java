package dev.toolsmith.librarian.airlock;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The airlock UI's sign-in lockouts land in the audit log, and only the UI's service key can put them there:
 * not an admin, not a person whose call the UI forwards, not a planner.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class SignInAuditTest {

    private static final String PATH = "/audit/sign-in-events";

    @Test
    void aLockoutAndItsLiftingAreAuditedForAdminsToSee() {
        String account = "mallet-" + UUID.randomUUID();
        given().header("X-API-Key", TestTools.SERVICE_KEY).contentType(ContentType.JSON)
                .body("{\"event\":\"LOCKED\",\"kind\":\"account\",\"key\":\"" + account
                        + "\",\"failures\":10,\"lockedUntil\":\"2026-11-25T21:00:00Z\",\"at\":\"2026-11-25T20:45:00Z\"}")
                .post(PATH).then().statusCode(204);
        given().header("X-API-Key", TestTools.SERVICE_KEY).contentType(ContentType.JSON)
                .body("{\"event\":\"LIFTED\",\"kind\":\"account\",\"key\":\"" + account + "\",\"by\":\"alice\"}")
                .post(PATH).then().statusCode(204);

        given().header("X-API-Key", TestTools.VIEWER_KEY).get("/audit?subjectId=account:" + account)
                .then().statusCode(200).body("total", equalTo(2))
                .body("items[0].action", equalTo("SIGN_IN_UNLOCKED")).body("items[0].actor", equalTo("alice"))
                .body("items[1].action", equalTo("SIGN_IN_LOCKED")).body("items[1].subjectType", equalTo("sign-in"))
                .body("items[1].after.failures", equalTo(10))
                .body("items[1].summary", equalTo("account " + account
                        + " locked out until 2026-11-25T21:00:00Z after 10 failed sign-ins"));
        given().header("X-API-Key", TestTools.ADMIN_KEY).get("/audit?action=SIGN_IN_LOCKED")
                .then().statusCode(200).body("items.subjectId", hasItem("account:" + account));
    }

    @Test
    void nobodyButAServiceMayWriteARecord() {
        String body = "{\"event\":\"LIFTED\",\"kind\":\"account\",\"key\":\"x\",\"by\":\"eve\"}";
        given().header("X-API-Key", TestTools.ADMIN_KEY).contentType(ContentType.JSON).body(body).post(PATH)
                .then().statusCode(403);
        given().header("X-API-Key", TestTools.PLANNER_KEY).contentType(ContentType.JSON).body(body).post(PATH)
                .then().statusCode(403);
        // A person's call forwarded by the UI acts with that person's roles, never the service's own.
        given().header("X-API-Key", TestTools.SERVICE_KEY).header("X-Toolsmith-User", "eve")
                .header("X-Toolsmith-Roles", "admin,service").contentType(ContentType.JSON).body(body).post(PATH)
                .then().statusCode(403);
        given().contentType(ContentType.JSON).body(body).post(PATH).then().statusCode(401);
    }

    @Test
    void aMalformedRecordIsRefusedNamingTheField() {
        expect400("{\"event\":\"DELETED\",\"kind\":\"account\",\"key\":\"x\"}", "event: expected LOCKED or LIFTED");
        expect400("{\"event\":\"LOCKED\",\"kind\":\"planet\",\"key\":\"x\"}", "kind: expected account or address");
        expect400("{\"event\":\"LOCKED\",\"kind\":\"address\",\"key\":\"\"}", "key: expected 1..320 characters");
        expect400("{\"event\":\"LOCKED\",\"kind\":\"address\",\"key\":\"10.0.0.1\",\"lockedUntil\":\"2026-11-25T21:00:00Z\"}",
                "failures: expected a whole number above 0");
        expect400("{\"event\":\"LIFTED\",\"kind\":\"address\",\"key\":\"10.0.0.1\"}",
                "by: expected the admin who lifted the lockout");
    }

    private static void expect400(String body, String error) {
        given().header("X-API-Key", TestTools.SERVICE_KEY).contentType(ContentType.JSON).body(body).post(PATH)
                .then().statusCode(400).body("error", equalTo(error));
    }
}
