package dev.toolsmith.ui.security;

import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.PersistentLoginManager;
import io.quarkus.vertx.http.runtime.security.PersistentLoginManager.RestoreResult;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The session cookie of the form login, for sign-ins that do not go through the form (OIDC). It is Quarkus'
 * own {@link PersistentLoginManager}, built from the same {@code quarkus.http.auth.form.*} and
 * {@code quarkus.http.auth.session.encryption-key} settings, so it writes exactly the cookie the form login
 * writes: same name, same AES-GCM encryption and key, same idle timeout, renewal interval and attributes.
 */
@ApplicationScoped
public class SessionCookie {

    private final PersistentLoginManager manager;
    private final String name;
    private final String path;

    SessionCookie(@ConfigProperty(name = "quarkus.http.auth.session.encryption-key") String encryptionKey,
            @ConfigProperty(name = "quarkus.http.auth.form.cookie-name") String name,
            @ConfigProperty(name = "quarkus.http.auth.form.timeout") Duration idleTimeout,
            @ConfigProperty(name = "quarkus.http.auth.form.new-cookie-interval") Duration renewalInterval,
            @ConfigProperty(name = "quarkus.http.auth.form.http-only-cookie") boolean httpOnly,
            @ConfigProperty(name = "quarkus.http.auth.form.cookie-same-site") String sameSite,
            @ConfigProperty(name = "quarkus.http.auth.form.cookie-path", defaultValue = "/") String path) {
        this.name = name;
        this.path = path;
        this.manager = new PersistentLoginManager(encryptionKey, name, idleTimeout.toMillis(),
                renewalInterval.toMillis(), httpOnly, CookieSameSite.valueOf(sameSite.toUpperCase(Locale.ROOT)).name(),
                path, -1, null);
    }

    /** The session's stored value, or null without a valid (decryptable, unexpired) cookie. */
    public RestoreResult restore(RoutingContext rc) {
        return manager.restore(rc);
    }

    /** Writes a new cookie, or renews the restored one when its renewal interval has passed. */
    public void save(String value, RoutingContext rc, RestoreResult restored) {
        manager.save(value, rc, name, restored, rc.request().isSSL());
    }

    /** Tells the browser to drop the cookie (signing out). */
    public void expire(RoutingContext rc) {
        rc.response().addCookie(expired());
    }

    /** Whether the request carries a session cookie at all (valid or not). */
    public boolean sent(RoutingContext rc) {
        return rc.request().getCookie(name) != null;
    }

    /** The {@code Set-Cookie} value that drops the cookie, for responses built without the routing context. */
    public String expiredHeader() {
        return expired().encode();
    }

    /**
     * The challenge of every session mechanism: a plain 401 for the single-page app (never a redirect), dropping
     * a cookie that did not authenticate (signed out, expired, from before a password change or from the other
     * sign-in kind), so that the app's next {@code GET /api/session} is anonymous.
     */
    public ChallengeData unauthenticated(RoutingContext rc) {
        return sent(rc) ? new ChallengeData(401, HttpHeaders.SET_COOKIE, expiredHeader()) : new ChallengeData(401, null, null);
    }

    private Cookie expired() {
        return Cookie.cookie(name, "").setPath(path).setMaxAge(0);
    }
}
