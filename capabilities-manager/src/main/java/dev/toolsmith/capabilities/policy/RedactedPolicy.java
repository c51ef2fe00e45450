package dev.toolsmith.capabilities.policy;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import java.util.List;

/**
 * A policy as operators see it: every limit, and the NAMES of its secrets only. The ciphertexts stay
 * in the database; the plaintexts exist only inside a call.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RedactedPolicy(UsagePolicy.RateLimit rateLimit, UsagePolicy.Quota quota, UsagePolicy.Budget budget,
        List<String> allowedCallers, List<String> secretNames) {

    public static RedactedPolicy of(UsagePolicy policy) {
        return new RedactedPolicy(policy.rateLimit(), policy.quota(), policy.budget(), policy.allowedCallers(),
                policy.secrets().keySet().stream().sorted().toList());
    }
}
