package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.eventing.rest.ApiError;
import io.vertx.pgclient.PgException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A source's delete that lost to other work on the same rows: it waited longer than its lock timeout
 * (a scan or a review holding the source's candidates) or PostgreSQL chose it as a deadlock's victim.
 * Nothing was removed; the caller is told so with a 503 and a Retry-After, instead of waiting on until its
 * own timeout gives up on a transaction the librarian then rolls back unseen.
 */
final class SourceDeleteContention {

    /**
     * How long the delete waits for a row lock before giving up: well inside the airlock UI's 30 s upstream
     * timeout, so its answer reaches the admin.
     */
    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(5);
    static final int RETRY_AFTER_SECONDS = 5;

    /** lock_not_available (lock_timeout), deadlock_detected, serialization_failure. */
    private static final Set<String> CONTENTION = Set.of("55P03", "40P01", "40001");

    private SourceDeleteContention() {
    }

    /** The answer for {@code failure} when it is contention on the source's rows; empty for anything else. */
    static Optional<WebApplicationException> of(Throwable failure, String sourceId) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String state = sqlState(cause);
            if (state != null && CONTENTION.contains(state)) {
                String why = "40P01".equals(state) ? "a deadlock with other work on it"
                        : "other work (a scan or a review) holding its candidates";
                String message = "source " + sourceId + " was not deleted: " + why + "; nothing was removed, try again"
                        + " in " + RETRY_AFTER_SECONDS + " s";
                return Optional.of(new WebApplicationException(message, failure, Response.status(503)
                        .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                        .type(MediaType.APPLICATION_JSON_TYPE)
                        .entity(ApiError.of(503, message))
                        .build()));
            }
        }
        return Optional.empty();
    }

    /** Hibernate Reactive hands the driver's error on as an SQLException; the driver's own is a PgException. */
    private static String sqlState(Throwable failure) {
        if (failure instanceof SQLException sql) {
            return sql.getSQLState();
        }
        return failure instanceof PgException pg ? pg.getSqlState() : null;
    }
}
