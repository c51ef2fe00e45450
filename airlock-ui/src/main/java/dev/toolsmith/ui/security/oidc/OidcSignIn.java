package dev.toolsmith.ui.security.oidc;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.security.UiRole;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The authorization code flow with PKCE for a confidential client, done with Nimbus' OAuth 2.0/OIDC SDK:
 * where to send the browser, and what the provider's answer means (code → tokens at the token endpoint with
 * client_secret_basic → a validated ID token → user name and role). Blocking: call from a worker thread.
 */
@ApplicationScoped
public class OidcSignIn {

    private static final Logger LOG = Logger.getLogger(OidcSignIn.class);

    private final UiConfig.Oidc config;
    private final OidcProvider provider;
    private final OidcRoleMapping roles;

    OidcSignIn(UiConfig config, OidcProvider provider) {
        this.config = config.oidc();
        this.provider = provider;
        this.roles = new OidcRoleMapping(this.config.rolesClaim(),
                new HashSet<>(this.config.adminValues().orElse(List.of())),
                new HashSet<>(this.config.viewerValues().orElse(List.of())));
    }

    /** The provider's authorization URL for this pending sign-in. */
    URI authorizationUrl(PendingSignIn pending) throws OidcSignInException {
        var metadata = provider.discovered().metadata();
        return new AuthenticationRequest.Builder(ResponseType.CODE, Scope.parse(config.scopes()), clientId(),
                config.redirectUri().orElseThrow())
                .endpointURI(metadata.getAuthorizationEndpointURI())
                .state(pending.state())
                .nonce(pending.nonce())
                .codeChallenge(pending.verifier(), CodeChallengeMethod.S256)
                .build()
                .toURI();
    }

    /** Exchanges the code and validates the ID token; the pending sign-in's state was already checked. */
    OidcSessionValue finish(String code, PendingSignIn pending) throws OidcSignInException {
        var discovered = provider.discovered();
        JWT idToken = exchange(code, pending, discovered.metadata().getTokenEndpointURI());
        IDTokenClaimsSet claims;
        try {
            claims = discovered.validator().validate(idToken, pending.nonce());
        } catch (KeySourceException e) {
            LOG.warnf("OIDC sign-in failed: the provider's keys (JWKS) could not be fetched: %s", e.getMessage());
            throw new OidcSignInException(502, "the identity provider could not be reached; try again later");
        } catch (BadJOSEException | JOSEException e) {
            // Nimbus' messages name the failed check (signature, issuer, audience, expiry, nonce), not the token.
            LOG.infof("OIDC sign-in refused: invalid ID token: %s", e.getMessage());
            throw new OidcSignInException(401, "the identity provider's ID token is not valid");
        }
        Map<String, Object> json = claims.toJSONObject();
        // The name is forwarded as X-Toolsmith-User and logged: no control characters (line breaks).
        String user = Stream.of(claims.getStringClaim(config.userClaim()), claims.getSubject().getValue())
                .filter(name -> name != null && !name.isBlank() && name.chars().noneMatch(Character::isISOControl))
                .findFirst()
                .orElseThrow(() -> new OidcSignInException(401, "the identity provider's ID token names no usable user"));
        UiRole role = roles.roleOf(json).orElseThrow(() -> {
            LOG.infof("OIDC sign-in refused for %s: no %s value maps to a Toolsmith role", user, config.rolesClaim());
            return new OidcSignInException(403, "your account has no Toolsmith role: ask an administrator to add "
                    + "you to the Toolsmith admin or viewer group");
        });
        return new OidcSessionValue(user, role);
    }

    private JWT exchange(String code, PendingSignIn pending, URI tokenEndpoint) throws OidcSignInException {
        TokenRequest request = new TokenRequest(tokenEndpoint,
                new ClientSecretBasic(clientId(), new Secret(config.clientSecret().orElseThrow())),
                new AuthorizationCodeGrant(new AuthorizationCode(code), config.redirectUri().orElseThrow(),
                        pending.verifier()));
        TokenResponse response;
        try {
            response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
        } catch (IOException e) {
            LOG.warnf("OIDC token endpoint %s unreachable: %s", tokenEndpoint, e.getMessage());
            throw new OidcSignInException(502, "the identity provider could not be reached; try again later");
        } catch (ParseException e) {
            LOG.warnf("OIDC sign-in failed: unreadable token response from %s", tokenEndpoint);
            throw new OidcSignInException(502, "the identity provider's answer could not be read; try again later");
        }
        if (!response.indicatesSuccess()) {
            ErrorObject error = ((TokenErrorResponse) response).getErrorObject();
            if (error.getHTTPStatusCode() >= 500) {
                // The provider failed (not a refusal of this code): a gateway error, as when it is unreachable.
                LOG.warnf("OIDC token endpoint %s answered HTTP %d", tokenEndpoint, error.getHTTPStatusCode());
                throw new OidcSignInException(502, "the identity provider could not be reached; try again later");
            }
            String errorCode = error.getCode();
            LOG.infof("OIDC sign-in refused: the token endpoint answered HTTP %d %s", error.getHTTPStatusCode(),
                    errorCode);
            throw new OidcSignInException(401, "the identity provider refused the sign-in"
                    + (errorCode == null ? "" : " (" + errorCode + ")"));
        }
        JWT idToken = ((OIDCTokenResponse) response).getOIDCTokens().getIDToken();
        if (idToken == null) {
            throw new OidcSignInException(401, "the identity provider sent no ID token");
        }
        return idToken;
    }

    private ClientID clientId() {
        return new ClientID(config.clientId().orElseThrow());
    }
}
