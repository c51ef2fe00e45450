package dev.toolsmith.ui.security;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;

/**
 * Refuses state-changing {@code /api} calls (sign-in included) that a foreign site could forge: they must
 * carry {@code X-Requested-With} (a header a cross-site form cannot set, and a cross-site script cannot
 * send without a CORS pre-flight, which this server never grants) and, when the browser sends an
 * {@code Origin}, it must be this server's own. The session cookie is also SameSite=Strict.
 */
public final class CsrfGuard {

    public static final String HEADER = "X-Requested-With";

    private CsrfGuard() {}

    public static void check(RoutingContext rc) {
        String method = rc.request().method().name();
        String path = rc.normalizedPath();
        if (!path.startsWith("/api/") || !ApiAccessRules.isStateChanging(method)) {
            rc.next();
            return;
        }
        String marker = rc.request().getHeader(HEADER);
        if (marker == null || marker.isBlank()) {
            refuse(rc, "state-changing requests must carry the " + HEADER + " header");
            return;
        }
        String origin = rc.request().getHeader(HttpHeaders.ORIGIN);
        String host = rc.request().getHeader(HttpHeaders.HOST);
        if (origin != null && !"null".equals(origin) && host != null && !sameHost(origin, host)) {
            refuse(rc, "cross-origin request refused");
            return;
        }
        rc.next();
    }

    private static boolean sameHost(String origin, String host) {
        try {
            URI uri = URI.create(origin);
            String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return host.equalsIgnoreCase(authority);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void refuse(RoutingContext rc, String message) {
        rc.response().setStatusCode(403)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(new JsonObject().put("error", message).encode());
    }
}
