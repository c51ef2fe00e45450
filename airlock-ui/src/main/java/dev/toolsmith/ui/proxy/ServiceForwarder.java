package dev.toolsmith.ui.proxy;

import dev.toolsmith.ui.security.UiIdentities;
import dev.toolsmith.ui.security.UiRole;
import dev.toolsmith.ui.config.UiConfig;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Forwards an authorised browser call to its service with the UI's service key and the signed-in user's
 * identity, and streams the answer back. Roles were already checked by {@code airlock-roles}; the service
 * checks them again on the forwarded identity.
 */
@ApplicationScoped
public class ServiceForwarder {

    private static final Logger LOG = Logger.getLogger(ServiceForwarder.class);

    private final UiConfig config;
    private final HttpClient client;

    ServiceForwarder(UiConfig config, Vertx vertx) {
        this.config = config;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout(5_000)
                .setKeepAlive(true)
                .setMaxPoolSize(32));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    public void forward(RoutingContext rc, ServiceRoute route) {
        String path = rc.normalizedPath();
        String upstreamPath = route.upstreamPath(path);
        // The services' management endpoints (metrics, OpenAPI, dev UI) are not part of the UI's API.
        if (upstreamPath.startsWith("/q/") && !upstreamPath.equals("/q/health")) {
            fail(rc, 404, "not found: " + path);
            return;
        }
        Optional<SecurityIdentity> identity = identityOf(rc);
        Optional<UiRole> role = identity.flatMap(UiIdentities::roleOf);
        if (role.isEmpty()) {
            fail(rc, 401, "sign in first");
            return;
        }
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(rc.request().method().name()))
                .setAbsoluteURI(route.upstreamUrl(path, rc.request().query()))
                .setIdleTimeout(config.upstreamTimeout().toMillis());
        Buffer body = rc.body() == null ? null : rc.body().buffer();

        client.request(options).compose(request -> {
            ForwardedHeaders.copyRequestHeaders(rc.request().headers(), request.headers());
            request.putHeader(ForwardedHeaders.API_KEY, config.serviceApiKey());
            request.putHeader(ForwardedHeaders.USER, identity.get().getPrincipal().getName());
            request.putHeader(ForwardedHeaders.ROLES, role.get().wireName());
            return body == null || body.length() == 0 ? request.send() : request.send(body);
        }).onSuccess(response -> {
            if (response.statusCode() == 401) {
                // The person is signed in (checked above): a 401 here means the service refused the UI's
                // own key. Passing it on would look like an expired session to the browser.
                LOG.warnf("%s refused the airlock UI's service key (toolsmith.ui.service-api-key)", route.service());
                response.body().onComplete(ignored -> fail(rc, 502,
                        route.service() + " did not accept the airlock UI's service key; an operator must fix the configuration"));
                return;
            }
            relay(rc, response);
        }).onFailure(error -> {
            if (error instanceof TimeoutException
                    || error.getClass().getSimpleName().contains("Timeout")) {
                fail(rc, 504, route.service() + " did not answer within " + config.upstreamTimeout().toSeconds() + " s");
            } else {
                LOG.warnf("%s unreachable at %s: %s", route.service(), route.baseUrl(), error.getMessage());
                // The cause (addresses, ports) goes to the log, not to the browser.
                fail(rc, 502, route.service() + " is unreachable; try again shortly");
            }
        });
    }

    private static void relay(RoutingContext rc, HttpClientResponse response) {
        if (rc.response().ended() || rc.response().closed()) {
            response.request().reset();
            return;
        }
        rc.response().setStatusCode(response.statusCode());
        ForwardedHeaders.copyResponseHeaders(response.headers(), rc.response().headers());
        rc.response().putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
        if (!rc.response().headers().contains(HttpHeaders.CONTENT_LENGTH)) {
            rc.response().setChunked(true);
        }
        response.pipeTo(rc.response());
    }

    private static Optional<SecurityIdentity> identityOf(RoutingContext rc) {
        return rc.user() instanceof QuarkusHttpUser user
                ? Optional.ofNullable(user.getSecurityIdentity())
                : Optional.empty();
    }

    static void fail(RoutingContext rc, int status, String message) {
        if (!rc.response().ended()) {
            rc.response().setStatusCode(status)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .end(new JsonObject().put("error", message).put("status", status).encode());
        }
    }
}
