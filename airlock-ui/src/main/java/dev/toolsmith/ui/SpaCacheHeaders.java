package dev.toolsmith.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * The SPA's entry page must be revalidated on every load: it names the content-hashed bundle of the
 * current release, and a day-long cached copy (Quarkus' default for static files) would keep loading a
 * bundle an upgrade removed. The hashed assets themselves keep Quarkus' long caching.
 */
final class SpaCacheHeaders {

    private SpaCacheHeaders() {}

    static void apply(RoutingContext rc) {
        String path = rc.normalizedPath();
        if ("/".equals(path) || "/index.html".equals(path)) {
            rc.addHeadersEndHandler(done -> rc.response().headers().set(HttpHeaders.CACHE_CONTROL, "no-cache"));
        }
        rc.next();
    }
}
