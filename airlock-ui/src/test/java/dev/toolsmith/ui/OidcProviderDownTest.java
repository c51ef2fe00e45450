package dev.toolsmith.ui;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** OIDC sign-in with the provider down (nothing listens at the issuer): a clear 502, never a 500. */
@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
@TestProfile(OidcProviderDownTest.ProviderDown.class)
class OidcProviderDownTest {

    public static class ProviderDown implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "toolsmith.ui.oidc.enabled", "true",
                    "toolsmith.ui.oidc.issuer", "http://127.0.0.1:" + closedPort() + "/realms/toolsmith",
                    "toolsmith.ui.oidc.client-id", "airlock-ui",
                    "toolsmith.ui.oidc.client-secret", "test-client-secret",
                    "toolsmith.ui.oidc.redirect-uri", "http://localhost:8080/api/session/oidc/callback",
                    "toolsmith.ui.oidc.admin-values", "toolsmith-admins");
        }

        private static int closedPort() {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void signingInAnswers502WithAMessageAndStartsNothing() {
        given().redirects().follow(false).when().get("/api/session/oidc/login").then().statusCode(502)
                .contentType(containsString("text/html")).body(containsString("could not be reached"))
                .header("Set-Cookie", nullValue());
        given().redirects().follow(false).accept(ContentType.JSON).when().get("/api/session/oidc/login").then()
                .statusCode(502).body("error", containsString("could not be reached"));
        // The rest of the UI still answers: the app can show its sign-in screen.
        given().when().get("/api/session").then().statusCode(401).body("signIn", org.hamcrest.Matchers.equalTo("oidc"));
    }
}
