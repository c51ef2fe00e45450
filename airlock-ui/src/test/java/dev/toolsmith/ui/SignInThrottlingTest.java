package dev.toolsmith.ui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.matching.UrlPattern;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Guessing a password is slowed down and then locked out, admins see and lift the lockout (limits of
 * src/test/resources/application.properties: 3 free failures, delays from 0.3 s, lockout after 6).
 */
@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
class SignInThrottlingTest {

    private static final UrlPattern AUDIT = WireMock.urlEqualTo("/librarian/audit/sign-in-events");

    private static Response attempt(String password) {
        return given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "mallet").formParam("password", password)
                .when().post("/api/session/login");
    }

    @Test
    void repeatedWrongPasswordsAreDelayedThenLockedOutEvenForTheRightOneUntilAnAdminLiftsIt() throws Exception {
        UpstreamServices.server.stubFor(WireMock.post(AUDIT).willReturn(WireMock.aResponse().withStatus(204)));
        for (int i = 0; i < 3; i++) {
            assertThat(attempt("wrong-" + i).statusCode()).isEqualTo(401);
        }
        // The fourth comes too soon: refused without checking the password, and told when to retry.
        Response tooSoon = attempt("mallet-password");
        assertThat(tooSoon.statusCode()).isEqualTo(429);
        assertThat(tooSoon.header("Retry-After")).isEqualTo("1");
        assertThat(tooSoon.jsonPath().getString("error")).startsWith("too many failed sign-ins: wait");

        int status = 0;
        for (int failures = 3; failures < 6; failures++) {
            Thread.sleep(700);
            status = attempt("wrong-again").statusCode();
        }
        assertThat(status).as("the sixth failure locks the account").isEqualTo(429);
        Thread.sleep(700);
        Response locked = attempt("mallet-password");
        assertThat(locked.statusCode()).isEqualTo(429);
        assertThat(locked.jsonPath().getString("error")).contains("locked out");
        assertThat(Integer.parseInt(locked.header("Retry-After"))).isGreaterThan(500);

        // Admins see the lockout; viewers do not.
        given().cookie(SignIn.COOKIE, SignIn.viewer()).when().get("/api/session/lockouts").then().statusCode(403);
        String admin = SignIn.admin();
        List<Map<String, Object>> lockouts = given().cookie(SignIn.COOKIE, admin).when().get("/api/session/lockouts")
                .then().statusCode(200).extract().jsonPath().getList("lockouts");
        assertThat(lockouts).anySatisfy(l -> {
            assertThat(l).containsEntry("kind", "account").containsEntry("key", "mallet").containsEntry("failures", 6);
            assertThat((String) l.get("lockedUntil")).isNotBlank();
        });

        given().header("X-Requested-With", "test").cookie(SignIn.COOKIE, admin)
                .when().delete("/api/session/lockouts/account/mallet").then().statusCode(204);
        given().header("X-Requested-With", "test").cookie(SignIn.COOKIE, admin)
                .when().delete("/api/session/lockouts/planet/mallet").then().statusCode(400)
                .body("error", equalTo("kind: expected account or address"));
        attempt("mallet-password").then().statusCode(200).body("user", equalTo("mallet"));

        // Both decisions reach the librarian's audit log, sent with the UI's own service key.
        List<LoggedRequest> audited = auditRecords(2);
        assertThat(audited).allSatisfy(r -> assertThat(r.getHeader("X-API-Key")).isEqualTo("test-ui-service-key"));
        assertThat(audited.get(0).getBodyAsString()).contains("\"event\":\"LOCKED\"", "\"kind\":\"account\"",
                "\"key\":\"mallet\"", "\"failures\":6", "\"lockedUntil\"");
        assertThat(audited.get(1).getBodyAsString()).contains("\"event\":\"LIFTED\"", "\"key\":\"mallet\"",
                "\"by\":\"admin\"");
    }

    /** The audit records sent so far, waiting (up to 10 s) until there are {@code count}: they go asynchronously. */
    private static List<LoggedRequest> auditRecords(int count) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<LoggedRequest> found = UpstreamServices.server.findAll(WireMock.postRequestedFor(AUDIT));
        while (found.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
            found = UpstreamServices.server.findAll(WireMock.postRequestedFor(AUDIT));
        }
        return found;
    }

    @Test
    void aRefusedSignInIsJsonNamingTheProblem() {
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "nobody-here").formParam("password", "x")
                .when().post("/api/session/login").then().statusCode(401).contentType(ContentType.JSON)
                .body("error", containsString("invalid user name or password"));
    }
}
