package dev.toolsmith.ui;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

/**
 * A WireMock server standing in for an OIDC provider: its discovery document and a JWKS with an RSA key
 * generated here. Tests stub the token endpoint with ID tokens they sign with {@link #idToken}. Keys and tokens are
 * made with jose4j, which quarkus-oidc brings (it validates tokens with it too).
 */
public class OidcProviderStub implements QuarkusTestResourceLifecycleManager {

    static final String CLIENT_ID = "airlock-ui";
    static final String CLIENT_SECRET = "test-client-secret-never-logged";
    static final String REDIRECT_URI = "http://localhost:8080/api/session/oidc/callback";
    static final String TOKEN_PATH = "/realms/toolsmith/protocol/openid-connect/token";
    static final String AUTHORIZATION_PATH = "/realms/toolsmith/protocol/openid-connect/auth";

    static WireMockServer server;
    static RsaJsonWebKey signingKey;
    /** Another key with the same key id: a token it signs must fail the signature check. */
    static RsaJsonWebKey impostorKey;

    static String issuer() {
        return "http://127.0.0.1:" + server.port() + "/realms/toolsmith";
    }

    @Override
    public Map<String, String> start() {
        signingKey = rsaKey("test-key");
        impostorKey = rsaKey("test-key");
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
                        .withBody(new JsonWebKeySet(signingKey).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY))));
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
    static String idToken(RsaJsonWebKey key, String user, String nonce, List<String> groups) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer());
        claims.setAudience(CLIENT_ID);
        claims.setSubject("subject-of-" + user);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(5);
        claims.setClaim("nonce", nonce);
        claims.setClaim("preferred_username", user);
        claims.setStringListClaim("groups", groups);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue(key.getKeyId());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private static RsaJsonWebKey rsaKey(String keyId) {
        try {
            RsaJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
            key.setKeyId(keyId);
            return key;
        } catch (JoseException e) {
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
