package dev.toolsmith.ui;

import dev.toolsmith.ui.security.CsrfGuard;
import dev.toolsmith.ui.security.PasswordSession;
import dev.toolsmith.ui.security.PasswordSignInRoutes;
import dev.toolsmith.ui.security.SessionRevocations;
import dev.toolsmith.ui.security.SessionCookie;
import dev.toolsmith.ui.security.UiIdentities;
import dev.toolsmith.ui.security.oidc.OidcSignInRoutes;
import dev.toolsmith.ui.security.oidc.OidcSessionValue;
import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.proxy.ServiceForwarder;
import dev.toolsmith.ui.proxy.ServiceRoute;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * The UI backend's HTTP surface: the session endpoints, the forwarded service APIs and the CSRF guard.
 * The SPA itself is served from META-INF/resources; sign-in is {@link PasswordSignInRoutes} at
 * {@code POST /api/session/login} or, when {@code toolsmith.ui.oidc.enabled}, OIDC at
 * {@code /api/session/oidc/login} (then the password sign-in is refused).
 */
@ApplicationScoped
public class UiRoutes {

    /** Above Quarkus' authentication handlers, so that even a forged sign-in is refused. */
    private static final int CSRF_FILTER_PRIORITY = 10_000;

    private static final String PASSWORD_LOGIN_PATH = PasswordSignInRoutes.LOGIN_PATH;

    private final UiConfig config;
    private final ServiceForwarder forwarder;
    private final OidcSignInRoutes oidcRoutes;
    private final SessionCookie sessionCookie;
    private final PasswordSignInRoutes passwordSignIn;
    private final SessionRevocations revocations;

    UiRoutes(UiConfig config, ServiceForwarder forwarder, OidcSignInRoutes oidcRoutes, SessionCookie sessionCookie,
            PasswordSignInRoutes passwordSignIn, SessionRevocations revocations) {
        this.config = config;
        this.forwarder = forwarder;
        this.oidcRoutes = oidcRoutes;
        this.sessionCookie = sessionCookie;
        this.passwordSignIn = passwordSignIn;
        this.revocations = revocations;
    }

    void filters(@Observes Filters filters) {
        filters.register(CsrfGuard::check, CSRF_FILTER_PRIORITY);
        filters.register(SpaCacheHeaders::apply, CSRF_FILTER_PRIORITY - 1);
        if (config.oidc().enabled()) {
            // Before the form mechanism, which would otherwise check the password of a configured user.
            filters.register(this::refusePasswordSignIn, CSRF_FILTER_PRIORITY - 2);
            // Before quarkus-oidc's code mechanism, which would answer an odd callback with a bare 401.
            filters.register(OidcSignInRoutes::checkCallback, CSRF_FILTER_PRIORITY - 3);
        }
    }

    void routes(@Observes Router router) {
        router.get("/api/session").handler(this::currentSession);
        router.post("/api/session/logout").handler(this::logout);
        passwordSignIn.register(router);
        if (config.oidc().enabled()) {
            oidcRoutes.register(router);
        }
        for (ServiceRoute route : serviceRoutes()) {
            router.route(route.prefix() + "/*")
                    .handler(BodyHandler.create(false).setBodyLimit(config.maxRequestBytes()))
                    .handler(rc -> forwarder.forward(rc, route));
            router.route(route.prefix()).handler(rc -> forwarder.forward(rc, route));
        }
        router.route("/api/*").handler(rc -> json(rc, 404, new JsonObject()
                .put("error", "no such API: " + rc.request().method() + " " + rc.normalizedPath())));
    }

    List<ServiceRoute> serviceRoutes() {
        return List.of(
                new ServiceRoute("librarian", "/api/librarian", config.services().librarian()),
                new ServiceRoute("capabilities-manager", "/api/capabilities", config.services().capabilities()),
                new ServiceRoute("engineer", "/api/engineer", config.services().engineer()));
    }

    private void currentSession(RoutingContext rc) {
        if (!(rc.user() instanceof QuarkusHttpUser user) || user.getSecurityIdentity().isAnonymous()) {
            json(rc, 401, signInInfo().put("error", "sign in first"));
            return;
        }
        var identity = user.getSecurityIdentity();
        json(rc, 200, new JsonObject()
                .put("user", identity.getPrincipal().getName())
                .put("role", UiIdentities.roleOf(identity).map(r -> r.wireName()).orElse(null)));
    }

    /** Tells the SPA which sign-in screen to show: the password form or a button to the OIDC provider. */
    private JsonObject signInInfo() {
        if (config.oidc().enabled()) {
            return new JsonObject().put("signIn", "oidc").put("loginUrl", OidcSignInRoutes.LOGIN_PATH)
                    .put("provider", config.oidc().providerName());
        }
        return new JsonObject().put("signIn", "password").put("loginUrl", PASSWORD_LOGIN_PATH);
    }

    private void refusePasswordSignIn(RoutingContext rc) {
        // As Quarkus' form mechanism matches its post-location: any POST whose path ends with it.
        if (rc.request().method() == HttpMethod.POST && rc.normalizedPath().endsWith(PASSWORD_LOGIN_PATH)) {
            json(rc, 403, signInInfo().put("error", "password sign-in is off: sign in with "
                    + config.oidc().providerName()));
            return;
        }
        rc.next();
    }

    private void logout(RoutingContext rc) {
        // The browser drops the cookie, and the server forgets the session: a copy of the cookie no longer works.
        var restored = sessionCookie.restore(rc);
        if (restored != null) {
            PasswordSession.decode(restored.getPrincipal()).ifPresent(session -> revocations.revoke(session.id()));
            OidcSessionValue.decode(restored.getPrincipal()).ifPresent(session -> revocations.revoke(session.id()));
        }
        sessionCookie.expire(rc);
        rc.response().setStatusCode(204).end();
    }

    private static void json(RoutingContext rc, int status, JsonObject body) {
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end(body.encode());
    }

}
