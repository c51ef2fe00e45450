package dev.toolsmith.librarian.airlock.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.tool.Risk;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a usage policy must meet to be approved, the same ones the approve dialog checks (its
 * {@code policyForm.ts}): the server enforces them, so an API caller cannot approve what the UI would
 * refuse. Each breach is a {@link ContractViolation} naming the field by its JSON pointer under
 * {@code /policy}, which the REST layer turns into a 400.
 */
public final class PolicyRules {

    private static final Pattern CALLER = Pattern.compile("[A-Za-z0-9._:@/*-]{1,200}");
    private static final Pattern SECRET_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,99}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    private static final Set<String> READING_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private PolicyRules() {
    }

    /** Checks the policy's own consistency; null is the unrestricted policy and passes. */
    public static void check(PolicyRequest policy) {
        if (policy == null) {
            return;
        }
        checkCallers(policy.allowedCallers());
        checkRate(policy.rateLimit());
        checkQuota(policy.quota());
        checkBudget(policy.budget());
        checkSecrets(policy.secrets());
    }

    /**
     * Checks the approval's risk against what the operation does: an operation that is not a read may not be
     * declared READ_ONLY, and a tool that changes data runs without any limit only when the admin says so
     * ({@code acceptUnlimited}), as the approve dialog asks.
     */
    public static void checkRisk(String method, Risk declared, Risk override, PolicyRequest policy, boolean acceptUnlimited) {
        String verb = method == null ? "" : method.toUpperCase(Locale.ROOT);
        if (override == Risk.READ_ONLY && !verb.isEmpty() && !READING_METHODS.contains(verb)) {
            throw new ContractViolation("/riskOverride", "field /riskOverride: a " + verb
                    + " operation changes data and cannot be approved as READ_ONLY");
        }
        Risk effective = override != null ? override : declared;
        if (effective != null && effective != Risk.READ_ONLY && unlimited(policy) && !acceptUnlimited) {
            throw new ContractViolation("/acceptUnlimited", "field /acceptUnlimited: this tool is " + effective
                    + ": set a rate limit, quota or budget, or confirm with acceptUnlimited: true that it may run"
                    + " without limits");
        }
    }

    private static boolean unlimited(PolicyRequest policy) {
        return policy == null || (policy.rateLimit() == null && policy.quota() == null && policy.budget() == null);
    }

    private static void checkCallers(List<String> callers) {
        if (callers == null) {
            return;
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < callers.size(); i++) {
            String caller = callers.get(i);
            String pointer = "/policy/allowedCallers/" + i;
            if (caller == null || !CALLER.matcher(caller).matches()) {
                throw violation(pointer, "a caller identity is 1 to 200 letters, digits or . _ : @ / - *, found "
                        + (caller == null ? "null" : "'" + shortened(caller) + "'"));
            }
            if (!seen.add(caller)) {
                throw violation(pointer, "'" + caller + "' is listed twice");
            }
        }
    }

    private static void checkRate(UsagePolicy.RateLimit rate) {
        if (rate == null) {
            return;
        }
        if (rate.perSecond() == null && rate.perMinute() == null) {
            throw violation("/policy/rateLimit", "a rate limit needs perSecond or perMinute (or leave rateLimit out)");
        }
        if (rate.perSecond() != null && !(rate.perSecond() > 0) || rate.perSecond() != null && rate.perSecond().isInfinite()) {
            throw violation("/policy/rateLimit/perSecond", "must be a number greater than 0");
        }
        atLeastOne(rate.perMinute(), "/policy/rateLimit/perMinute");
        atLeastOne(rate.burst(), "/policy/rateLimit/burst");
    }

    private static void checkQuota(UsagePolicy.Quota quota) {
        if (quota == null) {
            return;
        }
        if (quota.perDay() == null && quota.perMonth() == null) {
            throw violation("/policy/quota", "a quota needs perDay, perMonth or both (or leave quota out)");
        }
        atLeastOne(quota.perDay(), "/policy/quota/perDay");
        atLeastOne(quota.perMonth(), "/policy/quota/perMonth");
        if (quota.perDay() != null && quota.perMonth() != null && quota.perMonth() < quota.perDay()) {
            throw violation("/policy/quota/perMonth", "the monthly quota (" + quota.perMonth()
                    + ") cannot be smaller than the daily quota (" + quota.perDay() + ")");
        }
    }

    private static void checkBudget(UsagePolicy.Budget budget) {
        if (budget == null) {
            return;
        }
        if (budget.currency() == null || !CURRENCY.matcher(budget.currency()).matches()) {
            throw violation("/policy/budget/currency", "a three-letter ISO currency code such as EUR is needed");
        }
        if (budget.costPerCall() == null) {
            throw violation("/policy/budget/costPerCall", "a budget needs the cost of one call");
        }
        notNegative(budget.costPerCall(), "/policy/budget/costPerCall");
        notNegative(budget.softLimit(), "/policy/budget/softLimit");
        notNegative(budget.hardLimit(), "/policy/budget/hardLimit");
        if (budget.softLimit() == null && budget.hardLimit() == null) {
            throw violation("/policy/budget/hardLimit", "set a soft limit, a hard limit or both");
        }
        if (budget.softLimit() != null && budget.hardLimit() != null
                && budget.softLimit().compareTo(budget.hardLimit()) > 0) {
            throw violation("/policy/budget/softLimit", "the soft limit (" + budget.softLimit().toPlainString()
                    + ") must not exceed the hard limit (" + budget.hardLimit().toPlainString() + ")");
        }
        if (budget.hardLimit() != null && budget.costPerCall().compareTo(budget.hardLimit()) > 0) {
            throw violation("/policy/budget/hardLimit", "the hard limit is below the cost of a single call");
        }
    }

    private static void checkSecrets(Map<String, String> secrets) {
        if (secrets == null) {
            return;
        }
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            String pointer = "/policy/secrets/" + secret.getKey().replace("~", "~0").replace("/", "~1");
            if (!SECRET_NAME.matcher(secret.getKey()).matches()) {
                throw violation(pointer, "secret names start with a letter or _ and use letters, digits, _ . -");
            }
            if (secret.getValue() == null || secret.getValue().isEmpty()) {
                throw violation(pointer, "the value of secret '" + secret.getKey() + "' is empty");
            }
        }
    }

    private static void atLeastOne(Number value, String pointer) {
        if (value != null && value.longValue() < 1) {
            throw violation(pointer, "must be a whole number of at least 1, found " + value);
        }
    }

    private static void notNegative(BigDecimal amount, String pointer) {
        if (amount != null && amount.signum() < 0) {
            throw violation(pointer, "must not be negative, found " + amount.toPlainString());
        }
    }

    private static ContractViolation violation(String pointer, String problem) {
        return new ContractViolation(pointer, "field " + pointer + ": " + problem);
    }

    private static String shortened(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}
