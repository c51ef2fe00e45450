package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import dev.toolsmith.ui.proxy.ForwardedHeaders;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Writes sign-in lockouts and their lifting into the librarian's audit log ({@code POST
 * /audit/sign-in-events}, which only the {@code service} role may call), so admins find them next to every
 * other security decision, and they outlive this replica's memory. The UI has no database of its own.
 *
 * <p>Sent asynchronously, retried a few times with growing pauses: a sign-in never waits for the audit, and a
 * librarian restart does not lose the record. If every attempt fails the lockout still holds; the WARN line
 * {@link SignInThrottle} writes remains the record.
 */
@ApplicationScoped
public class SignInAuditTrail implements SignInThrottle.LockoutListener {

    private static final Logger LOG = Logger.getLogger(SignInAuditTrail.class);
    private static final long[] RETRY_PAUSES_MS = {1_000, 5_000, 30_000};

    private final UiConfig config;
    private final Vertx vertx;
    private final HttpClient client;

    SignInAuditTrail(UiConfig config, Vertx vertx) {
        this.config = config;
        this.vertx = vertx;
        this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(5_000));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    @Override
    public void locked(SignInThrottle.Lockout lockout) {
        send(event("LOCKED", lockout.kind(), lockout.key()).put("failures", lockout.failures())
                .put("lockedUntil", lockout.lockedUntil().toString()), 0);
    }

    @Override
    public void lifted(String kind, String key, String by) {
        send(event("LIFTED", kind, key).put("by", by), 0);
    }

    private static JsonObject event(String event, String kind, String key) {
        return new JsonObject().put("event", event).put("kind", kind).put("key", key).put("at", Instant.now().toString());
    }

    private void send(JsonObject event, int attempt) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(config.services().librarian().toString().replaceAll("/+$", "") + "/audit/sign-in-events")
                .setIdleTimeout(config.upstreamTimeout().toMillis());
        client.request(options)
                .compose(request -> request.putHeader("Content-Type", "application/json")
                        .putHeader(ForwardedHeaders.API_KEY, config.serviceApiKey())
                        .send(Buffer.buffer(event.encode())))
                .onSuccess(response -> {
                    if (response.statusCode() / 100 == 2) {
                        return;
                    }
                    // A 4xx will not get better by retrying: the librarian refused the record itself.
                    if (response.statusCode() / 100 == 4) {
                        LOG.warnf("the librarian refused the sign-in audit record (%d %s)", response.statusCode(),
                                event.getString("event"));
                        return;
                    }
                    retry(event, attempt, "HTTP " + response.statusCode());
                })
                .onFailure(failure -> retry(event, attempt, failure.getClass().getSimpleName()));
    }

    private void retry(JsonObject event, int attempt, String why) {
        if (attempt >= RETRY_PAUSES_MS.length) {
            LOG.warnf("could not write a sign-in %s of %s %s to the audit log after %d attempts (%s)",
                    event.getString("event"), event.getString("kind"), LogSafe.of(event.getString("key")), attempt + 1, why);
            return;
        }
        vertx.setTimer(RETRY_PAUSES_MS[attempt], id -> send(event, attempt + 1));
    }
}
