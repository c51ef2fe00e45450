package dev.toolsmith.librarian.airlock.audit;

import dev.toolsmith.eventing.security.Roles;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Where the airlock UI records its sign-in lockouts and their lifting, so they sit in the audit log with every
 * other security decision ({@code SIGN_IN_LOCKED}, {@code SIGN_IN_UNLOCKED}). Only the {@code service} role
 * may write here: a browser's call forwarded by the UI carries the person's delegated roles, never
 * {@code service}, so nobody signed in can forge or erase a record.
 */
@Path("/audit/sign-in-events")
@Tag(name = "Airlock: audit")
public class SignInEventResource {

    private static final Set<String> KINDS = Set.of("account", "address");
    private static final int MAX_KEY_LENGTH = 320;

    /**
     * One lockout decision of the UI's sign-in throttle.
     *
     * @param event {@code LOCKED} or {@code LIFTED}
     * @param kind {@code account} (the user name as typed, lower case) or {@code address} (the client's address)
     * @param failures failed sign-ins that led to a lockout ({@code LOCKED} only)
     * @param lockedUntil end of the lockout ({@code LOCKED} only)
     * @param by the admin who lifted it ({@code LIFTED} only)
     */
    public record SignInEvent(String event, String kind, String key, Integer failures, Instant lockedUntil, String by,
            Instant at) {
    }

    private final AuditLog audit;

    public SignInEventResource(AuditLog audit) {
        this.audit = audit;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.SERVICE)
    @Operation(summary = "Record a sign-in lockout or its lifting (the airlock UI's service key only)")
    public Uni<Response> record(SignInEvent given) {
        if (given == null) {
            throw new IllegalArgumentException("body: expected a sign-in event");
        }
        require(given.kind() != null && KINDS.contains(given.kind()), "kind: expected account or address");
        require(given.key() != null && !given.key().isBlank() && given.key().length() <= MAX_KEY_LENGTH,
                "key: expected 1.." + MAX_KEY_LENGTH + " characters");
        String subject = given.kind() + ":" + given.key();
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("kind", given.kind());
        state.put("key", given.key());
        Supplier<Uni<Void>> recorded;
        if ("LOCKED".equals(given.event())) {
            require(given.failures() != null && given.failures() > 0, "failures: expected a whole number above 0");
            require(given.lockedUntil() != null, "lockedUntil: expected an ISO-8601 instant");
            state.put("failures", given.failures());
            state.put("lockedUntil", given.lockedUntil().toString());
            recorded = () -> audit.record("airlock-ui sign-in throttle", AuditLog.Action.SIGN_IN_LOCKED, "sign-in", subject,
                    given.kind() + " " + given.key() + " locked out until " + given.lockedUntil() + " after "
                            + given.failures() + " failed sign-ins", null, state);
        } else if ("LIFTED".equals(given.event())) {
            require(given.by() != null && !given.by().isBlank(), "by: expected the admin who lifted the lockout");
            recorded = () -> audit.record(given.by(), AuditLog.Action.SIGN_IN_UNLOCKED, "sign-in", subject,
                    given.kind() + " " + given.key() + " lockout lifted by " + given.by(), state, null);
        } else {
            throw new IllegalArgumentException("event: expected LOCKED or LIFTED");
        }
        return Panache.withTransaction(recorded).replaceWith(Response.noContent().build());
    }

    private static void require(boolean holds, String problem) {
        if (!holds) {
            throw new IllegalArgumentException(problem);
        }
    }
}
