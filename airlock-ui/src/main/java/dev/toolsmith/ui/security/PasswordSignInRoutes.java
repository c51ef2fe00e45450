package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.credential.PasswordCredential;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The password sign-in ({@code POST /api/session/login}, a form body with {@code username} and
 * {@code password}) and the admins' view of sign-in lockouts ({@code GET /api/session/lockouts},
 * {@code DELETE /api/session/lockouts/{account|address}/{key}}). Quarkus' form login did the sign-in before;
 * it answered a JSON, text or empty body with a 500 and could not be throttled. Every refusal here is JSON
 * with a status and a message: 400 for a missing field, 415 for another body type, 429 with
 * {@code Retry-After} while throttled or locked out ({@link SignInThrottle}), 401 for a wrong user name or
 * password.
 */
@ApplicationScoped
public class PasswordSignInRoutes {

    public static final String LOGIN_PATH = "/api/session/login";
    public static final String LOCKOUTS_PATH = "/api/session/lockouts";

    private static final Logger LOG = Logger.getLogger(PasswordSignInRoutes.class);
    private static final int MAX_FIELD = 256;

    private final IdentityProviderManager identities;
    private final ConfiguredUsers users;
    private final SignInThrottle throttle;
    private final SessionCookie sessionCookie;
    private final boolean oidcEnabled;

    PasswordSignInRoutes(IdentityProviderManager identities, ConfiguredUsers users, SignInThrottle throttle,
            SessionCookie sessionCookie, UiConfig config) {
        this.identities = identities;
        this.users = users;
        this.throttle = throttle;
        this.sessionCookie = sessionCookie;
        this.oidcEnabled = config.oidc().enabled();
    }

    public void register(Router router) {
        if (!oidcEnabled) {
            router.post(LOGIN_PATH).handler(BodyHandler.create(false).setBodyLimit(16 * 1024)).handler(this::signIn);
        }
        router.get(LOCKOUTS_PATH).handler(this::listLockouts);
        router.delete(LOCKOUTS_PATH + "/:kind/:key").handler(this::liftLockout);
    }

    private void signIn(RoutingContext rc) {
        String type = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded")) {
            json(rc, 415, error(415, "sign in with a form body (Content-Type: application/x-www-form-urlencoded) "
                    + "holding username and password; got " + (type == null ? "no Content-Type" : LogSafe.of(type))));
            return;
        }
        String name = rc.request().getFormAttribute("username");
        String password = rc.request().getFormAttribute("password");
        String problem = fieldProblem("username", name);
        if (problem == null) {
            problem = fieldProblem("password", password);
        }
        if (problem != null) {
            json(rc, 400, error(400, problem));
            return;
        }
        String address = rc.request().remoteAddress() == null ? "unknown" : rc.request().remoteAddress().hostAddress();
        Optional<SignInThrottle.Refusal> refusal = throttle.check(name, address);
        if (refusal.isPresent()) {
            tooMany(rc, refusal.get());
            return;
        }
        identities.authenticate(new UsernamePasswordAuthenticationRequest(name, new PasswordCredential(password.toCharArray())))
                .subscribe().with(identity -> signedIn(rc, identity), failure -> refused(rc, name, address, failure));
    }

    private static String fieldProblem(String field, String value) {
        if (value == null || value.isEmpty()) {
            return field + ": required (a form field)";
        }
        if (value.length() > MAX_FIELD) {
            return field + ": longer than " + MAX_FIELD + " characters";
        }
        if ("username".equals(field) && value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return field + ": contains a control character";
        }
        return null;
    }

    private void signedIn(RoutingContext rc, SecurityIdentity identity) {
        String name = identity.getPrincipal().getName();
        Optional<ConfiguredUser> user = users.find(name);
        if (user.isEmpty()) { // removed between the password check and here
            json(rc, 401, error(401, "invalid user name or password"));
            return;
        }
        throttle.succeeded(name);
        sessionCookie.save(PasswordSession.start(user.get()).encode(), rc, null);
        json(rc, 200, new JsonObject().put("user", name).put("role", user.get().role().wireName()));
    }

    private void refused(RoutingContext rc, String name, String address, Throwable failure) {
        if (!(failure instanceof AuthenticationFailedException)) {
            LOG.errorf(failure, "sign-in check failed for %s", LogSafe.of(name));
            json(rc, 500, error(500, "the sign-in could not be checked; try again"));
            return;
        }
        throttle.failed(name, address);
        Optional<SignInThrottle.Refusal> now = throttle.check(name, address);
        if (now.isPresent() && now.get().lockedOut()) {
            tooMany(rc, now.get());
            return;
        }
        json(rc, 401, error(401, "invalid user name or password"));
    }

    private static void tooMany(RoutingContext rc, SignInThrottle.Refusal refusal) {
        String why = refusal.lockedOut()
                ? "too many failed sign-ins for this " + (refusal.kind() == SignInThrottle.Kind.ACCOUNT ? "account" : "address")
                        + ": locked out, try again in " + refusal.retryAfterSeconds() + " s or ask an admin to lift the lockout"
                : "too many failed sign-ins: wait " + refusal.retryAfterSeconds() + " s before the next attempt";
        rc.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        json(rc, 429, error(429, why).put("retryAfterSeconds", refusal.retryAfterSeconds()));
    }

    private void listLockouts(RoutingContext rc) {
        if (!isAdmin(rc)) {
            json(rc, 403, error(403, "only admins see sign-in lockouts"));
            return;
        }
        JsonArray lockouts = new JsonArray();
        throttle.lockouts().forEach(l -> lockouts.add(new JsonObject().put("kind", l.kind()).put("key", l.key())
                .put("failures", l.failures()).put("lockedUntil", l.lockedUntil().toString())));
        json(rc, 200, new JsonObject().put("lockouts", lockouts));
    }

    private void liftLockout(RoutingContext rc) {
        if (!isAdmin(rc)) {
            json(rc, 403, error(403, "only admins lift sign-in lockouts"));
            return;
        }
        SignInThrottle.Kind kind;
        try {
            kind = SignInThrottle.Kind.valueOf(rc.pathParam("kind").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            json(rc, 400, error(400, "kind: expected account or address"));
            return;
        }
        String admin = ((QuarkusHttpUser) rc.user()).getSecurityIdentity().getPrincipal().getName();
        if (!throttle.lift(kind, rc.pathParam("key"), admin)) {
            json(rc, 404, error(404, "no sign-in failures recorded for that " + kind.name().toLowerCase(Locale.ROOT)));
            return;
        }
        rc.response().setStatusCode(204).end();
    }

    private static boolean isAdmin(RoutingContext rc) {
        return rc.user() instanceof QuarkusHttpUser user
                && UiIdentities.roleOf(user.getSecurityIdentity()).filter(r -> r == UiRole.ADMIN).isPresent();
    }

    private static JsonObject error(int status, String message) {
        return new JsonObject().put("status", status).put("error", message);
    }

    private static void json(RoutingContext rc, int status, JsonObject body) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(body.encode());
    }
}
