package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.PersistentLoginManager.RestoreResult;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.Set;

/**
 * Restores a password user's session from the session cookie ({@link PasswordSession}), and renews it. It is
 * refused when signed out on the server ({@link SessionRevocations}), when the user no longer exists, or when
 * the user's password changed since. The role is looked up again in the configuration, so a changed role
 * applies at once. With OIDC sign-in on, the password users are off: their sessions are left to
 * {@code OidcSessionMechanism}, which refuses them.
 */
@ApplicationScoped
public class PasswordSessionMechanism implements HttpAuthenticationMechanism {

    private static final int PRIORITY = DEFAULT_PRIORITY + 500;

    private final boolean enabled;
    private final SessionCookie sessionCookie;
    private final ConfiguredUsers users;
    private final SessionRevocations revocations;

    PasswordSessionMechanism(UiConfig config, SessionCookie sessionCookie, ConfiguredUsers users,
            SessionRevocations revocations) {
        this.enabled = !config.oidc().enabled();
        this.sessionCookie = sessionCookie;
        this.users = users;
        this.revocations = revocations;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext rc, IdentityProviderManager identityProviderManager) {
        if (!enabled) {
            return Uni.createFrom().nullItem();
        }
        RestoreResult restored = sessionCookie.restore(rc);
        if (restored == null) {
            return Uni.createFrom().nullItem();
        }
        Optional<PasswordSession> session = PasswordSession.decode(restored.getPrincipal());
        if (session.isEmpty()) {
            return refused("not a password session");
        }
        if (revocations.isRevoked(session.get().id())) {
            return refused("signed out");
        }
        Optional<ConfiguredUser> user = users.find(session.get().user());
        if (user.isEmpty()) {
            return refused("the session's user no longer exists");
        }
        if (!session.get().samePassword(user.get())) {
            return refused("the password changed since this session signed in");
        }
        sessionCookie.save(session.get().encode(), rc, restored);
        return Uni.createFrom().item(UiIdentities.of(user.get()));
    }

    private static Uni<SecurityIdentity> refused(String why) {
        return Uni.createFrom().failure(new AuthenticationFailedException(why));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        // A plain 401 for the single-page app, dropping a cookie that did not authenticate (signed out, expired,
        // from before a password change) so that the app's next GET /api/session is anonymous.
        if (!enabled) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(sessionCookie.unauthenticated(context));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }
}
