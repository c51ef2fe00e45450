package dev.toolsmith.ui.security.oidc;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A refused sign-in as the browser sees it: a short page (or JSON for a caller that asks for it) with the status and
 * the message of an {@link OidcSignInException}, which never holds a token, code or secret.
 */
final class OidcRefusalPage {

    private OidcRefusalPage() {}

    static void send(RoutingContext rc, OidcSignInException e) {
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
