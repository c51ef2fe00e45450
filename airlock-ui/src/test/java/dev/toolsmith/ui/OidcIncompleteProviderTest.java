package dev.toolsmith.ui;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A provider whose discovery document lacks the authorization and token endpoints: signing in is a 502 naming
 * them (quarkus-oidc alone would redirect the browser to "null?response_type=code…"), and the UI stays up.
 */
@QuarkusTest
@QuarkusTestResource(UpstreamServices.class)
@TestProfile(OidcIncompleteProviderTest.IncompleteProvider.class)
class OidcIncompleteProviderTest {

    public static class IncompleteProvider implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(IncompleteDiscovery.class));
        }
    }

    public static class IncompleteDiscovery implements QuarkusTestResourceLifecycleManager {

        private WireMockServer server;

        @Override
        public Map<String, String> start() {
            server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
            server.start();
            String issuer = "http://127.0.0.1:" + server.port() + "/realms/toolsmith";
            server.stubFor(get(urlEqualTo("/realms/toolsmith/.well-known/openid-configuration"))
                    .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("""
                            {"issuer":"%1$s","jwks_uri":"%1$s/protocol/openid-connect/certs",
                             "response_types_supported":["code"],"subject_types_supported":["public"],
                             "id_token_signing_alg_values_supported":["RS256"]}
                            """.formatted(issuer))));
            return Map.of(
                    "toolsmith.ui.oidc.enabled", "true",
                    "toolsmith.ui.oidc.issuer", issuer,
                    "toolsmith.ui.oidc.client-id", "airlock-ui",
                    "toolsmith.ui.oidc.client-secret", "test-client-secret",
                    "toolsmith.ui.oidc.redirect-uri", "http://localhost:8080/api/session/oidc/callback",
                    "toolsmith.ui.oidc.admin-values", "toolsmith-admins");
        }

        @Override
        public void stop() {
            if (server != null) {
                server.stop();
            }
        }
    }

    @Test
    void signingInAnswers502NamingTheMissingEndpoints() {
        given().redirects().follow(false).when().get("/api/session/oidc/login").then().statusCode(502)
                .header("Location", nullValue())
                .body(allOf(containsString("lacks authorization_endpoint, token_endpoint"), not(containsString("jwks_uri"))));
        given().redirects().follow(false).accept(ContentType.JSON).when().get("/api/session/oidc/login").then()
                .statusCode(502).body("error", containsString("discovery document lacks"));
        given().when().get("/api/session").then().statusCode(401).body("signIn", org.hamcrest.Matchers.equalTo("oidc"));
    }
}
