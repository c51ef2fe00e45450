package dev.toolsmith.ui;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.RsaJsonWebKey;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * OIDC sign-in end to end over plain HTTP, with WireMock as the provider (discovery, JWKS, token endpoint) and
 * as the librarian: the authorization redirect, the callback, the session it creates and what that session
 * may do, and every way a callback is refused. The code flow is quarkus-oidc's: a sign-in in progress is its state
 * cookie {@code q_auth_<state>} (value {@code <state>|<encrypted nonce and PKCE verifier>}).
 */
@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
@TestProfile(OidcSignInTest.OidcEnabled.class)
class OidcSignInTest {

    public static class OidcEnabled implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(OidcProviderStub.class));
        }
    }

    private static final String STATE_COOKIE_PREFIX = "q_auth_";

    /** The browser's side of a sign-in in progress: the provider's query parameters and the state cookie. */
    record Started(Map<String, String> query, String stateCookieName, String stateCookie) {

        /** A request as this browser sends it: with the sign-in's state cookie. */
        RequestSpecification browser() {
            return given().redirects().follow(false).cookie(stateCookieName, stateCookie);
        }
    }

    @BeforeEach
    void reset() {
        UpstreamServices.server.resetAll();
        UpstreamServices.server.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{\"ok\":true}")));
        OidcProviderStub.server.resetRequests();
    }

    @Test
    void theSessionEndpointTellsTheAppToUseSingleSignOn() {
        given().when().get("/api/session").then().statusCode(401)
                .body("signIn", org.hamcrest.Matchers.equalTo("oidc"))
                .body("loginUrl", org.hamcrest.Matchers.equalTo("/api/session/oidc/login"))
                .body("provider", org.hamcrest.Matchers.equalTo("Keycloak"));
    }

    @Test
    void loginRedirectsToTheProviderWithStateNonceAndPkce() {
        Response login = given().redirects().follow(false).when().get("/api/session/oidc/login");
        assertThat(login.statusCode()).isEqualTo(302);
        URI location = URI.create(login.header("Location"));
        assertThat(location.toString()).startsWith(OidcProviderStub.issuer() + "/protocol/openid-connect/auth?");
        Map<String, String> query = query(location);
        assertThat(query).containsEntry("response_type", "code").containsEntry("client_id", OidcProviderStub.CLIENT_ID)
                .containsEntry("redirect_uri", OidcProviderStub.REDIRECT_URI)
                .containsEntry("scope", "openid profile email").containsEntry("code_challenge_method", "S256")
                .containsKeys("state", "nonce", "code_challenge");
        // The sign-in in progress: quarkus-oidc's state cookie, readable only on the OIDC paths, sent back on the
        // provider's top-level redirect (Lax).
        assertThat(login.header("Set-Cookie")).startsWith(STATE_COOKIE_PREFIX + query.get("state") + "=")
                .containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Lax").contains("Path=/api/session/oidc");
    }

    @Test
    void aViewerSignsInReadsButCannotChangeAnythingAndAnAdminCan() {
        Response callback = finish(start(), "carol", List.of("staff", "toolsmith-viewers"), OidcProviderStub.signingKey);
        assertThat(callback.statusCode()).isEqualTo(302);
        assertThat(callback.header("Location")).isEqualTo("/");
        assertThat(callback.headers().getValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                .startsWith(SignIn.COOKIE + "=").containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict"));
        String viewer = callback.cookie(SignIn.COOKIE);

        // The token request: the code, the PKCE verifier and the client's secret as HTTP basic authentication.
        String basic = Base64.getEncoder().encodeToString(
                (OidcProviderStub.CLIENT_ID + ":" + OidcProviderStub.CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        OidcProviderStub.server.verify(postRequestedFor(urlEqualTo(OidcProviderStub.TOKEN_PATH))
                .withHeader("Authorization", equalTo("Basic " + basic))
                .withRequestBody(containing("grant_type=authorization_code"))
                .withRequestBody(containing("code=the-code"))
                .withRequestBody(containing("code_verifier=")));

        given().cookie(SignIn.COOKIE, viewer).when().get("/api/session").then().statusCode(200)
                .body("user", org.hamcrest.Matchers.equalTo("carol")).body("role", org.hamcrest.Matchers.equalTo("viewer"));
        given().cookie(SignIn.COOKIE, viewer).when().get("/api/librarian/tools/sources").then().statusCode(200);
        given().cookie(SignIn.COOKIE, viewer).header("X-Requested-With", "test").contentType(ContentType.JSON)
                .body("{}").when().post("/api/librarian/tools/sources").then().statusCode(403);
        UpstreamServices.server.verify(0, postRequestedFor(urlEqualTo("/librarian/tools/sources")));

        String admin = finish(start(), "dana", List.of("toolsmith-admins"), OidcProviderStub.signingKey)
                .cookie(SignIn.COOKIE);
        given().cookie(SignIn.COOKIE, admin).header("X-Requested-With", "test").contentType(ContentType.JSON)
                .body("{}").when().post("/api/librarian/tools/sources").then().statusCode(200);
        UpstreamServices.server.verify(postRequestedFor(urlEqualTo("/librarian/tools/sources"))
                .withHeader("X-API-Key", equalTo("test-ui-service-key"))
                .withHeader("X-Toolsmith-User", equalTo("dana"))
                .withHeader("X-Toolsmith-Roles", equalTo("admin")));

        Response logout = given().cookie(SignIn.COOKIE, admin).header("X-Requested-With", "test")
                .when().post("/api/session/logout");
        assertThat(logout.statusCode()).isEqualTo(204);
        assertThat(logout.header("Set-Cookie")).startsWith(SignIn.COOKIE + "=").containsIgnoringCase("Max-Age=0");
        // Signed out on the server too: a copy of the cookie is no longer a session.
        given().cookie(SignIn.COOKIE, admin).when().get("/api/session").then().statusCode(401);
    }

    @Test
    void quarkusOidcsOwnSessionCookieIsNeverASession() {
        // The session is Toolsmith's revocable cookie; quarkus-oidc's q_session is dropped at once and restores nothing.
        Response callback = finish(start(), "carol", List.of("toolsmith-admins"), OidcProviderStub.signingKey);
        assertThat(callback.statusCode()).isEqualTo(302);
        assertThat(callback.headers().getValues("Set-Cookie")).filteredOn(cookie -> cookie.startsWith("q_session"))
                .allSatisfy(cookie -> assertThat(cookie).containsIgnoringCase("Max-Age=0"));
        given().cookie("q_session", "a-forged-or-copied-value").when().get("/api/session").then().statusCode(401);
        // On the sign-in path it is no session either: a new sign-in starts at the provider.
        Response login = given().redirects().follow(false).cookie("q_session", "a-forged-or-copied-value")
                .when().get("/api/session/oidc/login");
        assertThat(login.statusCode()).isEqualTo(302);
        assertThat(login.header("Location")).startsWith(OidcProviderStub.issuer() + "/protocol/openid-connect/auth?");
        assertThat(login.headers().getValues("Set-Cookie")).noneMatch(cookie -> cookie.startsWith(SignIn.COOKIE + "="));
    }

    @Test
    void aCallbackWithAnotherStateIsRefusedWith400AndNoSession() {
        Started started = start();
        stubTokenEndpoint("carol", started, List.of("toolsmith-admins"), OidcProviderStub.signingKey);
        Response callback = started.browser()
                .queryParam("code", "the-code").queryParam("state", "not-the-state")
                .when().get("/api/session/oidc/callback");
        assertThat(callback.statusCode()).isEqualTo(400);
        assertThat(callback.body().asString()).contains("does not belong to this browser");
        assertThat(callback.cookie(SignIn.COOKIE)).isNull();

        // Without the pending cookie, or without any state, it is refused too; the code is never exchanged.
        given().redirects().follow(false).queryParam("code", "the-code").queryParam("state", started.query().get("state"))
                .when().get("/api/session/oidc/callback").then().statusCode(400)
                .body(containsString("no sign-in is in progress"));
        started.browser().queryParam("code", "the-code")
                .accept(ContentType.JSON).when().get("/api/session/oidc/callback").then().statusCode(400)
                .body("error", containsString("no state"));
        OidcProviderStub.server.verify(0, postRequestedFor(urlEqualTo(OidcProviderStub.TOKEN_PATH)));
    }

    @Test
    void anIdTokenSignedByAnotherKeyIsRefusedWith401() {
        Response callback = finish(start(), "mallory", List.of("toolsmith-admins"), OidcProviderStub.impostorKey);
        assertThat(callback.statusCode()).isEqualTo(401);
        assertThat(callback.body().asString()).contains("ID token is not valid").doesNotContain("eyJ");
        assertThat(callback.cookie(SignIn.COOKIE)).isNull();
    }

    @Test
    void aUserWithoutAToolsmithRoleIsRefusedWith403() {
        Response callback = finish(start(), "erin", List.of("staff"), OidcProviderStub.signingKey);
        assertThat(callback.statusCode()).isEqualTo(403);
        assertThat(callback.body().asString()).contains("your account has no Toolsmith role");
        assertThat(callback.cookie(SignIn.COOKIE)).isNull();
    }

    @Test
    void theProvidersErrorAnswerIsRefusedWith401() {
        Started started = start();
        started.browser()
                .queryParam("error", "access_denied").queryParam("state", started.query().get("state"))
                .when().get("/api/session/oidc/callback").then().statusCode(401)
                .body(containsString("refused the sign-in (access_denied)"));
    }

    @Test
    void thePasswordSignInIsOff() {
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "admin").formParam("password", SignIn.ADMIN_PASSWORD)
                .when().post("/api/session/login")
                .then().statusCode(403).body("error", containsString("password sign-in is off"))
                .header("Set-Cookie", org.hamcrest.Matchers.nullValue());
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void thePasswordSignInIsOffOnEveryPathTheFormLoginAnswers() {
        // Quarkus' form mechanism takes any POST whose path ends with its post-location.
        given().header("X-Requested-With", "test").contentType(ContentType.URLENC)
                .formParam("username", "admin").formParam("password", SignIn.ADMIN_PASSWORD)
                .when().post("/api/librarian/api/session/login")
                .then().statusCode(403).header("Set-Cookie", org.hamcrest.Matchers.nullValue());
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aPasswordSessionCookieIsRefusedWhileOidcIsOn() {
        // What the form login wrote for "admin" before OIDC was switched on: same key, same cookie.
        String passwordSession = PasswordSessionCookie.of("admin");
        Response session = given().cookie(SignIn.COOKIE, passwordSession).when().get("/api/session");
        assertThat(session.statusCode()).isEqualTo(401);
        // The stale cookie is dropped, so the app's next GET /api/session shows the OIDC sign-in.
        assertThat(session.headers().getValues("Set-Cookie")).anySatisfy(cookie -> assertThat(cookie)
                .startsWith(SignIn.COOKIE + "=").containsIgnoringCase("Max-Age=0"));
        given().cookie(SignIn.COOKIE, passwordSession).when().get("/api/librarian/tools/sources").then().statusCode(401);
        given().cookie(SignIn.COOKIE, passwordSession).header("X-Requested-With", "test").contentType(ContentType.JSON)
                .body("{}").when().post("/api/librarian/tools/sources").then().statusCode(401);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
        given().when().get("/api/session").then().statusCode(401).body("signIn", org.hamcrest.Matchers.equalTo("oidc"));
    }

    @Test
    void aFailingTokenEndpointIs502NotARefusal() {
        Started started = start();
        OidcProviderStub.server.stubFor(post(urlEqualTo(OidcProviderStub.TOKEN_PATH))
                .willReturn(aResponse().withStatus(503).withHeader("Content-Type", "text/html").withBody("<h1>down</h1>")));
        started.browser()
                .queryParam("code", "the-code").queryParam("state", started.query().get("state"))
                .accept(ContentType.JSON).when().get("/api/session/oidc/callback").then().statusCode(502)
                .body("error", containsString("could not be reached"));
    }

    @Test
    void aCodeTheTokenEndpointRefusesIs401() {
        Started started = start();
        OidcProviderStub.server.stubFor(post(urlEqualTo(OidcProviderStub.TOKEN_PATH)).willReturn(aResponse()
                .withStatus(400).withHeader("Content-Type", "application/json").withBody("{\"error\":\"invalid_grant\"}")));
        Response callback = started.browser()
                .queryParam("code", "a-used-code").queryParam("state", started.query().get("state"))
                .when().get("/api/session/oidc/callback");
        assertThat(callback.statusCode()).isEqualTo(401);
        assertThat(callback.body().asString()).contains("refused the sign-in");
        assertThat(callback.cookie(SignIn.COOKIE)).isNull();
    }

    @Test
    void aUserNameWithLineBreaksIsRefusedWith401() {
        // It would be forwarded as X-Toolsmith-User (and logged); the stub's sub carries the same name.
        Response callback = finish(start(), "eve\r\nX-Toolsmith-Roles: admin", List.of("toolsmith-admins"),
                OidcProviderStub.signingKey);
        assertThat(callback.statusCode()).isEqualTo(401);
        assertThat(callback.body().asString()).contains("names no usable user");
        assertThat(callback.cookie(SignIn.COOKIE)).isNull();
    }

    @Test
    void oddCallbacksAreRefusedWith4xx() {
        // A callback without anything, and one with a state far too long: clear refusals, no exchange.
        given().redirects().follow(false).when().get("/api/session/oidc/callback").then().statusCode(400);
        Started started = start();
        started.browser()
                .queryParam("code", "the-code").queryParam("state", "x".repeat(3000))
                .when().get("/api/session/oidc/callback").then().statusCode(400);
        // A state cookie that does not carry the state it is named for, and one whose sealed part is not quarkus-oidc's.
        given().redirects().follow(false).cookie(STATE_COOKIE_PREFIX + "s", "garbage")
                .queryParam("code", "the-code").queryParam("state", "s")
                .when().get("/api/session/oidc/callback").then().statusCode(400);
        given().redirects().follow(false).cookie(STATE_COOKIE_PREFIX + "s", "s|garbage")
                .queryParam("code", "the-code").queryParam("state", "s")
                .when().get("/api/session/oidc/callback").then().statusCode(400)
                .body(containsString("could not be completed"));
        OidcProviderStub.server.verify(0, postRequestedFor(urlEqualTo(OidcProviderStub.TOKEN_PATH)));
    }

    private static Started start() {
        Response login = given().redirects().follow(false).when().get("/api/session/oidc/login");
        assertThat(login.statusCode()).isEqualTo(302);
        Map<String, String> query = query(URI.create(login.header("Location")));
        String cookieName = STATE_COOKIE_PREFIX + query.get("state");
        assertThat(login.cookie(cookieName)).isNotNull();
        return new Started(query, cookieName, login.cookie(cookieName));
    }

    private static Response finish(Started started, String user, List<String> groups, RsaJsonWebKey key) {
        stubTokenEndpoint(user, started, groups, key);
        return started.browser()
                .queryParam("code", "the-code").queryParam("state", started.query().get("state"))
                .when().get("/api/session/oidc/callback");
    }

    private static void stubTokenEndpoint(String user, Started started, List<String> groups, RsaJsonWebKey key) {
        String idToken = OidcProviderStub.idToken(key, user, started.query().get("nonce"), groups);
        OidcProviderStub.server.stubFor(post(urlEqualTo(OidcProviderStub.TOKEN_PATH))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("""
                        {"access_token":"access-token","token_type":"Bearer","expires_in":300,"id_token":"%s"}
                        """.formatted(idToken))));
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> params = new HashMap<>();
        for (String pair : uri.getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }
}
