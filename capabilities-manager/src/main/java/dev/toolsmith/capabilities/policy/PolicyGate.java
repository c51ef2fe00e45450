package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/**
 * Everything a wrapped tool's policy checks before a call, cheapest first: the caller is allowed, a
 * token is left in the caller's and the tool's rate bucket, and a unit of quota and the call's cost fit
 * into the day's and month's limits (reserved, so concurrent callers on any replica can never pass them).
 * A call refused by the rate limit reserves nothing; a call refused by quota or budget has used a rate
 * token, as an attempt. Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class PolicyGate {

    private final RateLimiter rateLimiter;
    private final UsageReservations reservations;
    private final Runnable softLimitCrossed;

    @Inject
    public PolicyGate(RateLimiter rateLimiter, UsageReservations reservations, BudgetAlerts alerts) {
        this(rateLimiter, reservations, alerts::announceSoon);
    }

    /** For the overhead benchmark, which runs without CDI; {@code softLimitCrossed} runs after a crossing commits. */
    public PolicyGate(RateLimiter rateLimiter, UsageReservations reservations, Runnable softLimitCrossed) {
        this.rateLimiter = rateLimiter;
        this.reservations = reservations;
        this.softLimitCrossed = softLimitCrossed;
    }

    public Admission admit(String toolId, UsagePolicy policy, String caller, Instant now) {
        Optional<String> refused = CallerAccess.refusal(toolId, policy, caller);
        if (refused.isEmpty()) {
            refused = rateLimiter.tryAcquire(toolId, caller, policy.rateLimit());
        }
        if (refused.isPresent()) {
            return new Admission.Denied(refused.get());
        }
        UsageReservations.Result result = reservations.reserve(toolId, policy, now);
        if (result instanceof UsageReservations.Result.Refused denied) {
            return new Admission.Denied(denied.reason());
        }
        UsageReservations.Result.Reserved reserved = (UsageReservations.Result.Reserved) result;
        if (reserved.softLimitCrossed()) {
            softLimitCrossed.run();
        }
        return new Admission.Admitted(reserved.reservation());
    }

    /** Gives back the quota and budget of a call that was refused before anything was sent. */
    public void release(Reservation reservation) {
        reservations.release(reservation);
    }
}
