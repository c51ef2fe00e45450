package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.security.SessionCookie;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The OIDC sign-in endpoints, on quarkus-oidc's authorization code flow (PKCE, state, nonce; configured in
 * application.properties from {@code toolsmith.ui.oidc.*}). Only these two paths use quarkus-oidc's code mechanism
 * ({@code quarkus.http.auth.permission.oidc-sign-in}): {@code GET /api/session/oidc/login} is its challenge, a 302 to
 * the provider; at {@code GET /api/session/oidc/callback} it checks the state, exchanges the code and validates the
 * ID token. Then this class takes over: it sets the same session cookie the password sign-in sets (user and role, see
 * {@link OidcSignedInUser}), drops quarkus-oidc's own session cookie ({@link TokensNotKept}) and sends the browser
 * back to the app. Every refusal is a short page or JSON ({@link OidcRefusalPage}), never a token, code or secret.
 */
@ApplicationScoped
public class OidcSignInRoutes {

    public static final String LOGIN_PATH = "/api/session/oidc/login";
    public static final String CALLBACK_PATH = "/api/session/oidc/callback";
    /** quarkus-oidc's cookies (state and session) live only here: {@code quarkus.oidc.authentication.cookie-path}. */
    static final String COOKIE_PATH = "/api/session/oidc";
    private static final String OIDC_SESSION_COOKIE = "q_session";

    static final Logger LOG = Logger.getLogger(OidcSignInRoutes.class);

    private final OidcSignedInUser signedIn;
    private final SessionCookie sessionCookie;
    private final OidcSignInFailures failures;

    OidcSignInRoutes(OidcSignedInUser signedIn, SessionCookie sessionCookie, OidcSignInFailures failures) {
        this.signedIn = signedIn;
        this.sessionCookie = sessionCookie;
        this.failures = failures;
    }

    /** The pre-check of callbacks, as an HTTP filter: it must run before authentication. */
    public static void checkCallback(RoutingContext rc) {
        OidcCallbackCheck.check(rc);
    }

    public void register(Router router) {
        // Both paths are reached only authenticated by the code flow: the login path too, if a provider's answer
        // is sent there. Either way the sign-in finishes the same.
        for (String path : new String[] {LOGIN_PATH, CALLBACK_PATH}) {
            router.get(path).handler(this::finish);
            router.route(path).failureHandler(failures::handle);
        }
    }

    private void finish(RoutingContext rc) {
        rc.response().addCookie(Cookie.cookie(OIDC_SESSION_COOKIE, "").setPath(COOKIE_PATH).setMaxAge(0));
        try {
            SecurityIdentity identity = rc.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null;
            OidcSessionValue session = signedIn.sessionOf(identity);
            sessionCookie.save(session.encode(), rc, null);
            LOG.infof("signed in with OIDC: %s (%s)", session.user(), session.role().wireName());
            rc.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, "/")
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store").end();
        } catch (OidcSignInException e) {
            LOG.infof("OIDC sign-in refused (%d): %s", e.status(), e.getMessage());
            OidcRefusalPage.send(rc, e);
        }
    }
}
