package dev.toolsmith.ui.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.smallrye.mutiny.Uni;
import dev.toolsmith.ui.config.UiConfig;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Restores the identity from the encrypted session cookie of the form login. The role is looked up again in
 * the configuration, so removing a user or changing their role takes effect on their next request after a
 * restart, not when the cookie expires. With OIDC sign-in enabled the password users are off: their sessions
 * are refused too (OIDC sessions are restored by {@code OidcSessionMechanism} before this is asked).
 */
@ApplicationScoped
public class SessionIdentityProvider implements IdentityProvider<TrustedAuthenticationRequest> {

    private final ConfiguredUsers users;
    private final boolean passwordUsersOff;

    SessionIdentityProvider(ConfiguredUsers users, UiConfig config) {
        this.users = users;
        this.passwordUsersOff = config.oidc().enabled();
    }

    @Override
    public Class<TrustedAuthenticationRequest> getRequestType() {
        return TrustedAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TrustedAuthenticationRequest request,
            AuthenticationRequestContext context) {
        if (passwordUsersOff) {
            return Uni.createFrom().failure(new AuthenticationFailedException("password sign-in is off"));
        }
        return users.find(request.getPrincipal())
                .map(user -> Uni.createFrom().item(UiIdentities.of(user)))
                .orElseGet(() -> Uni.createFrom().failure(
                        new AuthenticationFailedException("the session's user no longer exists")));
    }
}
