package dev.toolsmith.contracts.airlock;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The limits an approved external tool runs under. Every part is optional: a null part means no limit
 * of that kind. {@code secrets} maps a secret name to its ciphertext (AES-GCM under the platform key);
 * plaintext never travels in an event.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UsagePolicy(
        RateLimit rateLimit,
        Quota quota,
        Budget budget,
        List<String> allowedCallers,
        Map<String, String> secrets) {

    public UsagePolicy {
        allowedCallers = allowedCallers == null ? List.of() : List.copyOf(allowedCallers);
        secrets = secrets == null ? Map.of() : Map.copyOf(secrets);
    }

    public static UsagePolicy unrestricted() {
        return new UsagePolicy(null, null, null, null, null);
    }

    /** Token bucket: sustained calls per second and/or per minute, with a burst capacity. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RateLimit(Double perSecond, Integer perMinute, Integer burst) {
    }

    /** Hard caps on the number of calls per calendar day and month (UTC). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Quota(Long perDay, Long perMonth) {
    }

    /**
     * Spend per calendar month (UTC): each call costs {@code costPerCall}; crossing {@code softLimit}
     * notifies admins once, reaching {@code hardLimit} denies further calls.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Budget(String currency, BigDecimal costPerCall, BigDecimal softLimit, BigDecimal hardLimit) {

        public Budget {
            costPerCall = normalized(costPerCall);
            softLimit = normalized(softLimit);
            hardLimit = normalized(hardLimit);
        }

        /** 10, 10.0 and 1E+1 are one amount: give them one representation so equal budgets are equal. */
        private static BigDecimal normalized(BigDecimal amount) {
            if (amount == null) {
                return null;
            }
            BigDecimal stripped = amount.stripTrailingZeros();
            return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
        }
    }
}
