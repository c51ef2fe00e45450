package dev.toolsmith.ui;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * A WireMock server standing in for an OIDC provider: its discovery document and a JWKS with an RSA key
 * generated here. Tests stub the token endpoint with ID tokens they sign with {@link #idToken}.
 */
public class OidcProviderStub implements QuarkusTestResourceLifecycleManager {

    static final String CLIENT_ID = "airlock-ui";
    static final String CLIENT_SECRET = "test-client-secret-never-logged";
    static final String REDIRECT_URI = "http://localhost:8080/api/session/oidc/callback";
    static final String TOKEN_PATH = "/realms/toolsmith/protocol/openid-connect/token";
    static final String AUTHORIZATION_PATH = "/realms/toolsmith/protocol/openid-connect/auth";

    static WireMockServer server;
    static RSAKey signingKey;
    /** Another key with the same key id: a token it signs must fail the signature check. */
    static RSAKey impostorKey;

    static String issuer() {
        return "http://127.0.0.1:" + server.port() + "/realms/toolsmith";
    }

    @Override
    public Map<String, String> start() {
        try {
            signingKey = new RSAKeyGenerator(2048).keyID("test-key").generate();
            impostorKey = new RSAKeyGenerator(2048).keyID("test-key").generate();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        String issuer = issuer();
        server.stubFor(get(urlEqualTo("/realms/toolsmith/.well-known/openid-configuration"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("""
                        {"issuer":"%1$s","authorization_endpoint":"%2$s%3$s","token_endpoint":"%2$s%4$s",
                         "jwks_uri":"%1$s/protocol/openid-connect/certs","response_types_supported":["code"],
                         "subject_types_supported":["public"],"id_token_signing_alg_values_supported":["RS256"],
                         "code_challenge_methods_supported":["S256"]}
                        """.formatted(issuer, "http://127.0.0.1:" + server.port(), AUTHORIZATION_PATH, TOKEN_PATH))));
        server.stubFor(get(urlEqualTo("/realms/toolsmith/protocol/openid-connect/certs"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")
                        .withBody(new JWKSet(signingKey.toPublicJWK()).toString())));
        return Map.of(
                "toolsmith.ui.oidc.enabled", "true",
                "toolsmith.ui.oidc.issuer", issuer,
                "toolsmith.ui.oidc.client-id", CLIENT_ID,
                "toolsmith.ui.oidc.client-secret", CLIENT_SECRET,
                "toolsmith.ui.oidc.redirect-uri", REDIRECT_URI,
                "toolsmith.ui.oidc.roles-claim", "groups",
                "toolsmith.ui.oidc.admin-values", "toolsmith-admins",
                "toolsmith.ui.oidc.viewer-values", "toolsmith-viewers",
                "toolsmith.ui.oidc.provider-name", "Keycloak");
    }

    /** An ID token for this client, signed with the given key. */
    static String idToken(RSAKey key, String user, String nonce, List<String> groups) {
        Date now = new Date();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(issuer())
                .audience(CLIENT_ID)
                .subject("subject-of-" + user)
                .issueTime(now)
                .expirationTime(new Date(now.getTime() + 300_000))
                .claim("nonce", nonce)
                .claim("preferred_username", user)
                .claim("groups", groups)
                .build();
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
            jwt.sign(new RSASSASigner(key));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
