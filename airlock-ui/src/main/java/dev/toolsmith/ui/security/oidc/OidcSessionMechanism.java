package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.security.SessionCookie;
import dev.toolsmith.ui.security.SessionRevocations;
import dev.toolsmith.ui.security.UiIdentities;
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
import java.util.Set;

/**
 * Restores an OIDC user's session from the form login's session cookie. The form mechanism cannot do it: it
 * turns the cookie into a user name and looks the role up in {@code toolsmith.ui.users}, and on renewal it
 * rewrites the cookie with the identity's principal name, which would drop the role the provider gave. So this
 * mechanism, tried before the form mechanism (higher priority), reads and renews the same cookie itself. With
 * OIDC off it does nothing and the form login works as before.
 */
@ApplicationScoped
public class OidcSessionMechanism implements HttpAuthenticationMechanism {

    /** Above the form mechanism's default priority, so it sees the session cookie first. */
    private static final int PRIORITY = DEFAULT_PRIORITY + 1000;

    private final boolean enabled;
    private final SessionCookie sessionCookie;
    private final SessionRevocations revocations;

    OidcSessionMechanism(UiConfig config, SessionCookie sessionCookie, SessionRevocations revocations) {
        this.enabled = config.oidc().enabled();
        this.sessionCookie = sessionCookie;
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
        return OidcSessionValue.decode(restored.getPrincipal())
                .filter(session -> !revocations.isRevoked(session.id())) // signed out: a copy of the cookie is refused
                .map(session -> {
                    sessionCookie.save(session.encode(), rc, restored);
                    return Uni.createFrom().item(UiIdentities.of(session.user(), session.role()));
                })
                // A password user's session while OIDC is on: the password users are off.
                .orElseGet(() -> Uni.createFrom().failure(
                        new AuthenticationFailedException("not a single sign-on session")));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        // A single-page app wants a plain 401 (it shows its own sign-in screen), never a redirect. A session
        // cookie that did not authenticate (a password session from before OIDC was on, or an idled-out one)
        // is dropped, so that the app's next GET /api/session is anonymous and answers with the OIDC sign-in.
        if (!enabled) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(sessionCookie.unauthenticated(context));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        // The identity comes from the authenticated cookie alone; no identity provider is asked.
        return Set.of();
    }

    @Override
    public int getPriority() {
        return PRIORITY;
    }
}
