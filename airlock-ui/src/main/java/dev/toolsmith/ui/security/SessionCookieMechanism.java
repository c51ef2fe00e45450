package dev.toolsmith.ui.security;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.PersistentLoginManager.RestoreResult;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;

/**
 * What the password and the OIDC session mechanisms share: the one whose sign-in is on restores the session cookie
 * ({@link SessionCookie}), reads its value ({@link #read}: the only part each decides), and renews the cookie with the
 * identity it names or refuses it; the other does nothing. The challenge is {@link SessionCookie#unauthenticated}.
 * Subclasses are {@code @Singleton}: a normal scope would need a constructor without arguments for its proxy.
 */
public abstract class SessionCookieMechanism implements HttpAuthenticationMechanism {

    /** A cookie's value as a mechanism read it: the value to renew it with and who it is, or why it is refused. */
    public record Restored(String value, SecurityIdentity identity, String refusal) {

        public static Restored as(String value, SecurityIdentity identity) {
            return new Restored(value, identity, null);
        }

        public static Restored refused(String why) {
            return new Restored(null, null, why);
        }
    }

    private final boolean enabled;
    private final SessionCookie sessionCookie;
    private final int priority;

    protected SessionCookieMechanism(boolean enabled, SessionCookie sessionCookie, int priority) {
        this.enabled = enabled;
        this.sessionCookie = sessionCookie;
        this.priority = priority;
    }

    /** What the session cookie's stored {@code value} means to this mechanism. */
    protected abstract Restored read(String value);

    @Override
    public final Uni<SecurityIdentity> authenticate(RoutingContext rc, IdentityProviderManager identityProviderManager) {
        if (!enabled) {
            return Uni.createFrom().nullItem();
        }
        RestoreResult restored = sessionCookie.restore(rc);
        if (restored == null) {
            return Uni.createFrom().nullItem(); // no valid cookie: anonymous
        }
        Restored session = read(restored.getPrincipal());
        if (session.refusal() != null) {
            return Uni.createFrom().failure(new AuthenticationFailedException(session.refusal()));
        }
        sessionCookie.save(session.value(), rc, restored);
        return Uni.createFrom().item(session.identity());
    }

    @Override
    public final Uni<ChallengeData> getChallenge(RoutingContext context) {
        // A plain 401 for the single-page app (it shows its own sign-in screen), never a redirect, dropping a cookie
        // that did not authenticate so that the app's next GET /api/session is anonymous.
        return enabled ? Uni.createFrom().item(sessionCookie.unauthenticated(context)) : Uni.createFrom().nullItem();
    }

    @Override
    public final Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        // The identity comes from the authenticated cookie alone; no identity provider is asked.
        return Set.of();
    }

    @Override
    public final int getPriority() {
        return priority;
    }
}
