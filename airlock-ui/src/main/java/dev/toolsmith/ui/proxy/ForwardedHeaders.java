package dev.toolsmith.ui.proxy;

import io.vertx.core.MultiMap;
import java.util.Locale;
import java.util.Set;

/**
 * Which headers cross the UI's forwarding in each direction. Requests keep only content negotiation
 * headers: the browser's cookies, credentials and any identity headers it tries to send are dropped, and
 * the UI sets the service key and the signed-in user itself. Responses lose hop-by-hop headers and
 * cookies.
 */
public final class ForwardedHeaders {

    public static final String API_KEY = "X-API-Key";
    public static final String USER = "X-Toolsmith-User";
    public static final String ROLES = "X-Toolsmith-Roles";

    private static final Set<String> REQUEST_ALLOWED = Set.of(
            "accept", "accept-language", "content-type", "if-match", "if-none-match");

    private static final Set<String> RESPONSE_DROPPED = Set.of(
            "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
            "proxy-authenticate", "proxy-authorization", "set-cookie", "set-cookie2",
            "access-control-allow-origin", "access-control-allow-credentials", "www-authenticate");

    private ForwardedHeaders() {}

    public static void copyRequestHeaders(MultiMap from, MultiMap to) {
        from.forEach(header -> {
            if (REQUEST_ALLOWED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                to.add(header.getKey(), header.getValue());
            }
        });
    }

    public static void copyResponseHeaders(MultiMap from, MultiMap to) {
        from.forEach(header -> {
            if (!RESPONSE_DROPPED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                to.add(header.getKey(), header.getValue());
            }
        });
    }
}
