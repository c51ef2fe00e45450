package dev.toolsmith.librarian.airlock.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.util.List;
import java.util.TreeSet;

/** A stored usage policy as shown to people and the audit log: the secrets by name only. */
public record PolicyView(UsagePolicy.RateLimit rateLimit, UsagePolicy.Quota quota, UsagePolicy.Budget budget,
        List<String> allowedCallers, List<String> secretNames) {

    public static PolicyView of(UsagePolicy policy) {
        if (policy == null) {
            return null;
        }
        return new PolicyView(policy.rateLimit(), policy.quota(), policy.budget(), policy.allowedCallers(),
                List.copyOf(new TreeSet<>(policy.secrets().keySet())));
    }
}
