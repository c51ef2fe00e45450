package dev.toolsmith.ui.security.oidc;

import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.regex.Pattern;

/**
 * Refuses a callback that cannot finish a sign-in before quarkus-oidc sees it, with a status and a message the user
 * can act on: quarkus-oidc would answer a bare 401, or start a new sign-in at the provider, for all of them. It checks
 * only what the request itself shows; quarkus-oidc still checks the state cookie's content (encrypted: the nonce and
 * PKCE verifier), exchanges the code and validates the ID token.
 *
 * <p>quarkus-oidc keeps a sign-in in progress in a cookie named {@code q_auth_<state>} whose value starts with
 * {@code <state>|} ({@code quarkus.oidc.authentication.allow-multiple-code-flows=true}, the default tenant).
 */
final class OidcCallbackCheck {

    static final String STATE_COOKIE_PREFIX = "q_auth";
    /** An OAuth error code is a short token; anything else from the query string is not echoed. */
    private static final Pattern ERROR_CODE = Pattern.compile("^[A-Za-z0-9_.-]{1,64}$");

    private OidcCallbackCheck() {}

    /** A filter: refuses, or passes the request on. */
    static void check(RoutingContext rc) {
        if (!OidcSignInRoutes.CALLBACK_PATH.equals(rc.normalizedPath())) {
            rc.next();
            return;
        }
        try {
            checkCallback(rc);
            rc.next();
        } catch (OidcSignInException e) {
            dropStateCookies(rc);
            OidcSignInRoutes.LOG.infof("OIDC sign-in refused (%d): %s", e.status(), e.getMessage());
            OidcRefusalPage.send(rc, e);
        }
    }

    private static void checkCallback(RoutingContext rc) throws OidcSignInException {
        String error = rc.request().getParam("error");
        if (error != null) {
            String code = ERROR_CODE.matcher(error).matches() ? error : "error";
            throw new OidcSignInException(401, "the identity provider refused the sign-in (" + code + ")");
        }
        String state = rc.request().getParam("state");
        if (state == null || state.isBlank()) {
            throw new OidcSignInException(400, "the sign-in answer has no state: start the sign-in again");
        }
        if (rc.request().cookies().stream().noneMatch(c -> c.getName().startsWith(STATE_COOKIE_PREFIX))) {
            throw new OidcSignInException(400,
                    "no sign-in is in progress in this browser (or it took too long): start the sign-in again");
        }
        Cookie pending = rc.request().getCookie(STATE_COOKIE_PREFIX + "_" + state);
        if (pending == null || !sameValue(pending.getValue().split("\\|", 2)[0], state)) {
            throw new OidcSignInException(400,
                    "the sign-in answer does not belong to this browser's sign-in: start the sign-in again");
        }
        String code = rc.request().getParam("code");
        if (code == null || code.isBlank()) {
            throw new OidcSignInException(400, "the sign-in answer has no authorization code");
        }
    }

    private static boolean sameValue(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** A refused callback ends the sign-in it answered: its state cookie is of no further use. */
    private static void dropStateCookies(RoutingContext rc) {
        rc.request().cookies().stream().filter(c -> c.getName().startsWith(STATE_COOKIE_PREFIX))
                .forEach(c -> rc.response().addCookie(Cookie.cookie(c.getName(), "")
                        .setPath(OidcSignInRoutes.COOKIE_PATH).setMaxAge(0)));
    }
}
