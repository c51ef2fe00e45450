package dev.toolsmith.ui.security.oidc;

import io.quarkus.vertx.http.runtime.security.PersistentLoginManager;
import io.quarkus.vertx.http.runtime.security.PersistentLoginManager.RestoreResult;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps a {@link PendingSignIn} in the browser between the redirect to the provider and the callback: a
 * short-lived cookie encrypted (AES-GCM) with the session key by Quarkus' {@link PersistentLoginManager}, so the
 * browser can neither read the nonce and code verifier nor forge a state; nothing is kept on the server, so
 * any replica can finish a sign-in another replica started.
 *
 * <p>It is {@code SameSite=Lax}, unlike the Strict session cookie: the callback is a top-level navigation
 * that starts at the provider's site, and browsers do not send Strict cookies on such cross-site requests,
 * so a Strict cookie could never be read on the callback. Lax cookies are sent on top-level GET navigations
 * only, which is exactly the callback. (The Strict session cookie set on the callback's response is fine:
 * SameSite limits which requests carry a cookie, not which responses may set it.) Its path is limited to the
 * OIDC endpoints and it is deleted once read, so a state is good for one callback.
 */
@ApplicationScoped
public class PendingSignInCookie {

    static final String NAME = "toolsmith-oidc-pending";
    static final String PATH = "/api/session/oidc";
    /** Time to sign in at the provider. */
    private static final Duration LIFETIME = Duration.ofMinutes(10);

    private final PersistentLoginManager manager;

    PendingSignInCookie(@ConfigProperty(name = "quarkus.http.auth.session.encryption-key") String encryptionKey) {
        this.manager = new PersistentLoginManager(encryptionKey, NAME, LIFETIME.toMillis(), LIFETIME.toMillis(),
                true, CookieSameSite.LAX.name(), PATH, -1, null);
    }

    void save(PendingSignIn pending, RoutingContext rc) {
        manager.save(pending.encode(), rc, NAME, null, rc.request().isSSL());
    }

    /** The pending sign-in of this browser, if any and not expired; the cookie is deleted either way. */
    Optional<PendingSignIn> take(RoutingContext rc) {
        if (rc.request().getCookie(NAME) == null) {
            return Optional.empty();
        }
        RestoreResult restored = manager.restore(rc);
        rc.response().addCookie(Cookie.cookie(NAME, "").setPath(PATH).setMaxAge(0));
        return restored == null ? Optional.empty() : PendingSignIn.decode(restored.getPrincipal());
    }
}
