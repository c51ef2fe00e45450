package dev.toolsmith.ui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
class SessionTest {

    @Test
    void withoutSessionTheApiAnswers401() {
        given().when().get("/api/session").then().statusCode(401)
                .body("signIn", equalTo("password")).body("loginUrl", equalTo("/api/session/login"));
        given().when().get("/api/librarian/tools/sources").then().statusCode(401);
    }

    @Test
    void signInSetsAnHttpOnlyStrictSessionCookieAndSessionNamesTheUser() {
        Response login = given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "admin").formParam("password", SignIn.ADMIN_PASSWORD)
                .when().post("/api/session/login");
        assertThat(login.statusCode()).isEqualTo(200);
        String setCookie = login.header("Set-Cookie");
        assertThat(setCookie).startsWith(SignIn.COOKIE + "=").containsIgnoringCase("HttpOnly")
                .containsIgnoringCase("SameSite=Strict");

        given().cookie(SignIn.COOKIE, login.cookie(SignIn.COOKIE)).when().get("/api/session")
                .then().statusCode(200).body("user", equalTo("admin")).body("role", equalTo("admin"));
        given().cookie(SignIn.COOKIE, SignIn.viewer()).when().get("/api/session")
                .then().statusCode(200).body("user", equalTo("viewer")).body("role", equalTo("viewer"));
    }

    @Test
    void wrongPasswordOrUnknownUserIsRefused() {
        for (String[] attempt : new String[][] {{"admin", "wrong"}, {"nobody", SignIn.ADMIN_PASSWORD}}) {
            Response login = given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                    .formParam("username", attempt[0]).formParam("password", attempt[1])
                    .when().post("/api/session/login");
            assertThat(login.statusCode()).as("%s/%s", attempt[0], attempt[1]).isEqualTo(401);
            assertThat(login.cookie(SignIn.COOKIE)).isNullOrEmpty();
        }
    }

    @Test
    void aSignInWithoutTheCsrfHeaderOrFromAnotherOriginIsRefused() {
        given().contentType(ContentType.URLENC)
                .formParam("username", "admin").formParam("password", SignIn.ADMIN_PASSWORD)
                .when().post("/api/session/login")
                .then().statusCode(403).body("error", equalTo("state-changing requests must carry the X-Requested-With header"));
        given().header("X-Requested-With", "test").header("Origin", "https://evil.example")
                .contentType(ContentType.URLENC)
                .formParam("username", "admin").formParam("password", SignIn.ADMIN_PASSWORD)
                .when().post("/api/session/login")
                .then().statusCode(403).body("error", equalTo("cross-origin request refused"));
    }

    @Test
    void aForgedOrTamperedCookieIsNotASession() {
        given().cookie(SignIn.COOKIE, "not-an-encrypted-session").when().get("/api/session").then().statusCode(401);
        String real = SignIn.admin();
        String tampered = real.substring(0, real.length() - 4) + (real.endsWith("AAAA") ? "BBBB" : "AAAA");
        given().cookie(SignIn.COOKIE, tampered).when().get("/api/session").then().statusCode(401);
    }

    @Test
    void theTestHelpersPasswordSessionCookieIsASession() {
        // OidcSignInTest relies on it to show that such a cookie is refused while OIDC is on.
        given().cookie(SignIn.COOKIE, PasswordSessionCookie.of("viewer")).when().get("/api/session").then()
                .statusCode(200).body("user", equalTo("viewer")).body("role", equalTo("viewer"));
    }

    @Test
    void theOidcEndpointsDoNotExistWhileOidcIsOff() {
        // They are API paths like any other now (quarkus-oidc is inert): no redirect to a provider, 401 without a
        // session, 404 with one.
        given().redirects().follow(false).when().get("/api/session/oidc/login").then().statusCode(401);
        given().redirects().follow(false).when().get("/api/session/oidc/callback?code=x&state=y").then().statusCode(401);
        String admin = PasswordSessionCookie.of("admin");
        given().redirects().follow(false).cookie(SignIn.COOKIE, admin).when().get("/api/session/oidc/login").then()
                .statusCode(404);
        given().redirects().follow(false).cookie(SignIn.COOKIE, admin).when()
                .get("/api/session/oidc/callback?code=x&state=y").then().statusCode(404);
    }

    @Test
    void aSignInBodyThatIsNotAFormIs415AndAMissingFieldIs400NamingIt() throws Exception {
        for (String[] body : new String[][] {{"application/json", "{}"}, {"text/plain", "username=admin"}}) {
            given().header("X-Requested-With", "test").contentType(body[0]).body(body[1])
                    .when().post("/api/session/login").then().statusCode(415).contentType(ContentType.JSON)
                    .body("status", equalTo(415))
                    .body("error", org.hamcrest.Matchers.containsString("application/x-www-form-urlencoded"));
        }
        // No Content-Type at all (RestAssured always sends one).
        var noType = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + io.restassured.RestAssured.port + "/api/session/login"))
                .header("X-Requested-With", "test")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(noType.statusCode()).isEqualTo(415);
        assertThat(noType.body()).contains("no Content-Type");
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC).formParam("username", "admin")
                .when().post("/api/session/login").then().statusCode(400)
                .body("error", equalTo("password: required (a form field)"));
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC).formParam("password", "x")
                .when().post("/api/session/login").then().statusCode(400)
                .body("error", equalTo("username: required (a form field)"));
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "admin\nFORGED").formParam("password", "x")
                .when().post("/api/session/login").then().statusCode(400)
                .body("error", equalTo("username: contains a control character"));
    }

    @Test
    void signOutEndsTheSessionOnTheServerSoACopiedCookieNoLongerWorks() {
        String session = SignIn.viewer();
        String copy = session;
        given().cookie(SignIn.COOKIE, copy).when().get("/api/session").then().statusCode(200);
        given().header("X-Requested-With", "test").cookie(SignIn.COOKIE, session)
                .when().post("/api/session/logout").then().statusCode(204);
        given().cookie(SignIn.COOKIE, copy).when().get("/api/session").then().statusCode(401);
        given().cookie(SignIn.COOKIE, copy).when().get("/api/librarian/tools/sources").then().statusCode(401);
        // Other sessions of the same user are not affected.
        given().cookie(SignIn.COOKIE, SignIn.viewer()).when().get("/api/session").then().statusCode(200);
    }

    @Test
    void logoutClearsTheCookie() {
        String session = SignIn.viewer();
        Response logout = given().header("X-Requested-With", "test").cookie(SignIn.COOKIE, session)
                .when().post("/api/session/logout");
        assertThat(logout.statusCode()).isEqualTo(204);
        assertThat(logout.header("Set-Cookie")).startsWith(SignIn.COOKIE + "=").containsIgnoringCase("Max-Age=0");
    }

    @Test
    void theSinglePageAppIsServedAtTheRoot() {
        given().when().get("/").then().statusCode(200).contentType(ContentType.HTML)
                .header("Cache-Control", "no-cache")
                .header("Content-Security-Policy", org.hamcrest.Matchers.containsString("default-src 'self'"))
                .body(org.hamcrest.Matchers.containsString("<div id=\"root\"></div>"));
    }
}
