package dev.toolsmith.ui.security.oidc;

import dev.toolsmith.ui.security.SessionCookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * The OIDC sign-in endpoints: {@code GET /api/session/oidc/login} sends the browser to the provider and
 * {@code GET /api/session/oidc/callback} finishes the sign-in there, setting the same session cookie the
 * password sign-in sets and sending the browser back to the app. Every refusal is a short page (or JSON for a
 * caller that asks for it) with a 400/401/403/502 and a message, never a token, code or secret.
 */
@ApplicationScoped
public class OidcRoutes {

    public static final String LOGIN_PATH = "/api/session/oidc/login";
    public static final String CALLBACK_PATH = "/api/session/oidc/callback";

    private static final Logger LOG = Logger.getLogger(OidcRoutes.class);
    /** An OAuth error code is a short token; anything else from the query string is not echoed. */
    private static final Pattern ERROR_CODE = Pattern.compile("^[A-Za-z0-9_.-]{1,64}$");

    private final OidcSignIn signIn;
    private final PendingSignInCookie pendingCookie;
    private final SessionCookie sessionCookie;

    OidcRoutes(OidcSignIn signIn, PendingSignInCookie pendingCookie, SessionCookie sessionCookie) {
        this.signIn = signIn;
        this.pendingCookie = pendingCookie;
        this.sessionCookie = sessionCookie;
    }

    /** Registers the endpoints (on worker threads: discovery and the token exchange block). */
    public void register(Router router) {
        router.get(LOGIN_PATH).blockingHandler(this::login, false);
        router.get(CALLBACK_PATH).blockingHandler(this::callback, false);
    }

    private void login(RoutingContext rc) {
        try {
            PendingSignIn pending = PendingSignIn.create();
            String location = signIn.authorizationUrl(pending).toString();
            pendingCookie.save(pending, rc);
            redirect(rc, location);
        } catch (OidcSignInException e) {
            refuse(rc, e);
        }
    }

    private void callback(RoutingContext rc) {
        try {
            Optional<PendingSignIn> pending = pendingCookie.take(rc);
            String error = rc.request().getParam("error");
            if (error != null) {
                String code = ERROR_CODE.matcher(error).matches() ? error : "error";
                throw new OidcSignInException(401, "the identity provider refused the sign-in (" + code + ")");
            }
            String state = rc.request().getParam("state");
            if (state == null || state.isBlank()) {
                throw new OidcSignInException(400, "the sign-in answer has no state: start the sign-in again");
            }
            if (pending.isEmpty()) {
                throw new OidcSignInException(400,
                        "no sign-in is in progress in this browser (or it took too long): start the sign-in again");
            }
            if (!sameValue(state, pending.get().state().getValue())) {
                throw new OidcSignInException(400,
                        "the sign-in answer does not belong to this browser's sign-in: start the sign-in again");
            }
            String code = rc.request().getParam("code");
            if (code == null || code.isBlank()) {
                throw new OidcSignInException(400, "the sign-in answer has no authorization code");
            }
            OidcSessionValue session = signIn.finish(code, pending.get());
            sessionCookie.save(session.encode(), rc, null);
            LOG.infof("signed in with OIDC: %s (%s)", session.user(), session.role().wireName());
            redirect(rc, "/");
        } catch (OidcSignInException e) {
            LOG.infof("OIDC sign-in refused (%d): %s", e.status(), e.getMessage());
            refuse(rc, e);
        }
    }

    private static boolean sameValue(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static void redirect(RoutingContext rc, String location) {
        rc.response().setStatusCode(302)
                .putHeader(HttpHeaders.LOCATION, location)
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end();
    }

    private static void refuse(RoutingContext rc, OidcSignInException e) {
        String accept = rc.request().getHeader(HttpHeaders.ACCEPT);
        rc.response().setStatusCode(e.status()).putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (accept != null && accept.contains("application/json") && !accept.contains("text/html")) {
            rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("error", e.getMessage()).encode());
            return;
        }
        rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8").end("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Sign-in failed · Toolsmith Airlock</title></head>
                <body><main><h1>Sign-in failed</h1><p>%s.</p><p><a href="/">Back to Toolsmith Airlock</a></p></main></body>
                </html>
                """.formatted(escape(e.getMessage())));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
