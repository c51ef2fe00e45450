package dev.toolsmith.ui.security.oidc;

import io.quarkus.arc.Unremovable;
import io.quarkus.oidc.AuthorizationCodeTokens;
import io.quarkus.oidc.OidcRequestContext;
import io.quarkus.oidc.OidcTenantConfig;
import io.quarkus.oidc.TokenStateManager;
import io.quarkus.security.AuthenticationFailedException;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * quarkus-oidc's token state, what its own session cookie ({@code q_session}) would hold: here, nothing. Once the
 * code flow has validated the ID token, {@link OidcSignInRoutes} turns it into Toolsmith's own session cookie
 * (revocable on sign-out, {@code SessionRevocations}) and drops quarkus-oidc's cookie; the UI never calls the
 * provider again (no access token use, no refresh). So the tokens are kept neither in a cookie (quarkus-oidc's
 * default, which sign-out could not revoke) nor on the server: a token state is a random id remembered nowhere,
 * and a {@code q_session} cookie, copied or forged, never restores a session.
 */
@ApplicationScoped
@Unremovable // looked up by quarkus-oidc, injected nowhere: ArC would remove it
@Alternative
@Priority(1)
public class TokensNotKept implements TokenStateManager {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Override
    public Uni<String> createTokenState(RoutingContext routingContext, OidcTenantConfig oidcConfig,
            AuthorizationCodeTokens tokens, OidcRequestContext<String> requestContext) {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return Uni.createFrom().item(Base64.getUrlEncoder().withoutPadding().encodeToString(id));
    }

    @Override
    public Uni<AuthorizationCodeTokens> getTokens(RoutingContext routingContext, OidcTenantConfig oidcConfig,
            String tokenState, OidcRequestContext<AuthorizationCodeTokens> requestContext) {
        return Uni.createFrom().failure(new AuthenticationFailedException(
                "an OIDC session cookie is not a session here: the session is Toolsmith's own cookie"));
    }

    @Override
    public Uni<Void> deleteTokens(RoutingContext routingContext, OidcTenantConfig oidcConfig, String tokenState,
            OidcRequestContext<Void> requestContext) {
        return Uni.createFrom().voidItem();
    }
}
