package dev.toolsmith.librarian.airlock.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.util.List;
import java.util.Map;

/**
 * A usage policy as an admin submits it on approval: the contracts' {@link UsagePolicy}, except that
 * {@code secrets} maps each secret name to its plaintext. It is encrypted before anything is stored or
 * published, and never shown again (responses list secret names only).
 */
public record PolicyRequest(UsagePolicy.RateLimit rateLimit, UsagePolicy.Quota quota, UsagePolicy.Budget budget,
        List<String> allowedCallers, Map<String, String> secrets) {

    @Override
    public String toString() {
        // never let the plaintext reach a log line through a record's default toString
        return "PolicyRequest[rateLimit=" + rateLimit + ", quota=" + quota + ", budget=" + budget
                + ", allowedCallers=" + allowedCallers + ", secrets=" + (secrets == null ? "{}" : secrets.keySet()) + "]";
    }
}
