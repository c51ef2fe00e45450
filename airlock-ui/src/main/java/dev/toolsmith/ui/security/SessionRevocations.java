package dev.toolsmith.ui.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The session ids signed out on the server. The session cookie is self-contained (encrypted, expiring after
 * the idle timeout unless renewed), so clearing it in the browser left a copy of it valid: now its id is
 * remembered here and the cookie refused. An id needs remembering only for one idle timeout: a revoked
 * session can no longer be renewed, so any copy of its cookie expires within that time.
 *
 * <p>Kept in this replica's memory: with several UI replicas, a sign-out is known to the replica that took it
 * (and is lost on its restart); route a browser to one replica (sticky sessions) or run one replica
 * (docs/airlock-ui.md). The UI has no database of its own.
 */
@ApplicationScoped
public class SessionRevocations {

    private final Map<String, Instant> revoked = new ConcurrentHashMap<>();
    private final Duration remembered;
    private final Clock clock;

    @Inject
    SessionRevocations(@ConfigProperty(name = "quarkus.http.auth.form.timeout") Duration idleTimeout) {
        this(idleTimeout, Clock.systemUTC());
    }

    SessionRevocations(Duration idleTimeout, Clock clock) {
        // The renewal interval's worth more: a cookie renewed just before its expiry lives that much longer.
        this.remembered = idleTimeout.plusMinutes(2);
        this.clock = clock;
    }

    public void revoke(String sessionId) {
        Instant now = clock.instant();
        revoked.values().removeIf(until -> until.isBefore(now));
        revoked.put(sessionId, now.plus(remembered));
    }

    public boolean isRevoked(String sessionId) {
        Instant until = revoked.get(sessionId);
        return until != null && clock.instant().isBefore(until);
    }
}
