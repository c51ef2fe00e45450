package dev.toolsmith.ui;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
class ForwardingTest {

    @BeforeEach
    void reset() {
        UpstreamServices.server.resetAll();
        UpstreamServices.server.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{\"ok\":true}")));
    }

    @Test
    void aReadIsForwardedWithTheServiceKeyAndTheSignedInUserNeverTheBrowsersCredentials() {
        UpstreamServices.server.stubFor(get(urlEqualTo("/librarian/tools/sources?page=2&size=20"))
                .willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                        .withHeader("Set-Cookie", "upstream=1").withBody("{\"items\":[],\"total\":0}")));

        given().cookie(SignIn.COOKIE, SignIn.viewer())
                .header("X-Toolsmith-User", "mallory").header("X-Toolsmith-Roles", "admin")
                .header("X-API-Key", "browser-key").header("Authorization", "Bearer stolen")
                .when().get("/api/librarian/tools/sources?page=2&size=20")
                .then().statusCode(200).body(containsString("\"total\":0"))
                .header("Set-Cookie", org.hamcrest.Matchers.nullValue());

        UpstreamServices.server.verify(getRequestedFor(urlEqualTo("/librarian/tools/sources?page=2&size=20"))
                .withHeader("X-API-Key", equalTo("test-ui-service-key"))
                .withHeader("X-Toolsmith-User", equalTo("viewer"))
                .withHeader("X-Toolsmith-Roles", equalTo("viewer"))
                .withHeader("Authorization", absent())
                .withHeader("Cookie", absent()));
    }

    @Test
    void anAdminsChangeIsForwardedWithItsBodyAndTheServicesAnswerComesBackAsIs() {
        UpstreamServices.server.stubFor(post(urlEqualTo("/librarian/tools/sources"))
                .willReturn(aResponse().withStatus(400).withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":\"url: must be an http(s) URL\",\"pointer\":\"/url\"}")));

        given().cookie(SignIn.COOKIE, SignIn.admin()).header("X-Requested-With", "test")
                .contentType(ContentType.JSON).body("{\"name\":\"petstore\",\"type\":\"openapi\",\"url\":\"ftp://x\"}")
                .when().post("/api/librarian/tools/sources")
                .then().statusCode(400).body("pointer", org.hamcrest.Matchers.equalTo("/url"));

        UpstreamServices.server.verify(postRequestedFor(urlEqualTo("/librarian/tools/sources"))
                .withHeader("X-Toolsmith-User", equalTo("admin"))
                .withHeader("X-Toolsmith-Roles", equalTo("admin"))
                .withHeader("Content-Type", containing("application/json"))
                .withRequestBody(equalToJson("{\"name\":\"petstore\",\"type\":\"openapi\",\"url\":\"ftp://x\"}")));
    }

    private static com.github.tomakehurst.wiremock.matching.StringValuePattern containing(String s) {
        return com.github.tomakehurst.wiremock.client.WireMock.containing(s);
    }

    @Test
    void aViewerCannotChangeAnythingAndTheServiceNeverSeesTheAttempt() {
        String viewer = SignIn.viewer();
        given().cookie(SignIn.COOKIE, viewer).header("X-Requested-With", "test").contentType(ContentType.JSON)
                .body("{\"policy\":{}}").when().post("/api/librarian/tools/pending/p1/approve").then().statusCode(403);
        given().cookie(SignIn.COOKIE, viewer).header("X-Requested-With", "test")
                .when().delete("/api/librarian/tools/sources/s1").then().statusCode(403);
        given().cookie(SignIn.COOKIE, viewer).header("X-Requested-With", "test")
                .when().post("/api/capabilities/plugins/t1/disable").then().statusCode(403);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void aViewerMayMarkNotificationsRead() {
        given().cookie(SignIn.COOKIE, SignIn.viewer()).header("X-Requested-With", "test")
                .when().post("/api/librarian/notifications/n-42/read").then().statusCode(200);
        UpstreamServices.server.verify(postRequestedFor(urlEqualTo("/librarian/notifications/n-42/read"))
                .withHeader("X-Toolsmith-User", equalTo("viewer")));
    }

    @Test
    void aChangeWithoutTheCsrfHeaderIsRefusedBeforeForwarding() {
        given().cookie(SignIn.COOKIE, SignIn.admin()).contentType(ContentType.JSON).body("{}")
                .when().post("/api/librarian/tools/sources").then().statusCode(403);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void anonymousCallsAreNotForwarded() {
        given().when().get("/api/capabilities/plugins").then().statusCode(401);
        given().header("X-Requested-With", "test").when().post("/api/librarian/tools/sources").then().statusCode(401);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void eachPrefixGoesToItsOwnService() {
        given().cookie(SignIn.COOKIE, SignIn.admin()).when().get("/api/capabilities/usage?period=day")
                .then().statusCode(200);
        UpstreamServices.server.verify(getRequestedFor(urlEqualTo("/capabilities/usage?period=day")));
    }

    @Test
    void anUnreachableServiceIsA502NamingIt() {
        given().cookie(SignIn.COOKIE, SignIn.admin()).when().get("/api/engineer/builds")
                .then().statusCode(502).body("error", containsString("engineer is unreachable"));
    }

    @Test
    void aServiceRefusingTheUisKeyIsA502NotAnExpiredSession() {
        UpstreamServices.server.stubFor(get(urlEqualTo("/capabilities/plugins"))
                .willReturn(aResponse().withStatus(401).withHeader("WWW-Authenticate", "Bearer realm=\"toolsmith\"")));
        given().cookie(SignIn.COOKIE, SignIn.admin()).when().get("/api/capabilities/plugins")
                .then().statusCode(502).header("WWW-Authenticate", org.hamcrest.Matchers.nullValue())
                .body("error", containsString("capabilities-manager did not accept the airlock UI's service key"));
    }

    @Test
    void aServicesRoleRefusalReachesTheBrowserAsIs() {
        UpstreamServices.server.stubFor(post(urlEqualTo("/librarian/tools/sources"))
                .willReturn(aResponse().withStatus(403).withHeader("Content-Type", "application/json")
                        .withBody("{\"error\":\"forbidden\"}")));
        given().cookie(SignIn.COOKIE, SignIn.admin()).header("X-Requested-With", "test").contentType(ContentType.JSON)
                .body("{}").when().post("/api/librarian/tools/sources").then().statusCode(403);
    }

    @Test
    void aSlowServiceIsA504() {
        UpstreamServices.server.stubFor(get(urlEqualTo("/librarian/slow"))
                .willReturn(aResponse().withStatus(200).withFixedDelay(4_000)));
        given().cookie(SignIn.COOKIE, SignIn.admin()).when().get("/api/librarian/slow")
                .then().statusCode(504).body("error", containsString("librarian did not answer"));
    }

    @Test
    void theServicesManagementEndpointsAndUnknownApisAreNotReachable() {
        String admin = SignIn.admin();
        given().cookie(SignIn.COOKIE, admin).when().get("/api/librarian/q/metrics").then().statusCode(404);
        given().cookie(SignIn.COOKIE, admin).when().get("/api/nothing/here").then().statusCode(404);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void anOversizedBodyIsRefusedWith413() {
        String big = "{\"x\":\"" + "a".repeat(1_100_000) + "\"}";
        given().cookie(SignIn.COOKIE, SignIn.admin()).header("X-Requested-With", "test")
                .contentType(ContentType.JSON).body(big)
                .when().post("/api/librarian/tools/sources").then().statusCode(413);
        UpstreamServices.server.verify(0, anyRequestedFor(anyUrl()));
    }
}
