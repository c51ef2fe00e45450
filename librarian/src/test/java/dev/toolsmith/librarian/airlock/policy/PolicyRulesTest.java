package dev.toolsmith.librarian.airlock.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.tool.Risk;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 19 "Policies": the server enforces every rule the approve dialog enforces, naming the field. */
class PolicyRulesTest {

    @Test
    void aSensiblePolicyAndNoPolicyPass() {
        assertThatCode(() -> PolicyRules.check(null)).doesNotThrowAnyException();
        assertThatCode(() -> PolicyRules.check(new PolicyRequest(new UsagePolicy.RateLimit(2.5, 100, 5),
                new UsagePolicy.Quota(100L, 3000L), new UsagePolicy.Budget("EUR", new BigDecimal("0.01"),
                        new BigDecimal("8"), new BigDecimal("10")), List.of("planner-a", "ops@example.com"),
                Map.of("api_key", "s3cr3t")))).doesNotThrowAnyException();
    }

    @Test
    void eachSenselessPolicyIsRefusedByItsPointer() {
        assertRefused(policy(null, null, null, Arrays.asList("planner-a", null), null), "/policy/allowedCallers/1",
                "found null");
        assertRefused(policy(null, null, null, List.of("planner-a", "planner-a"), null), "/policy/allowedCallers/1",
                "listed twice");
        assertRefused(policy(new UsagePolicy.RateLimit(null, null, null), null, null, null, null), "/policy/rateLimit",
                "needs perSecond or perMinute");
        assertRefused(policy(new UsagePolicy.RateLimit(0.0, null, null), null, null, null, null),
                "/policy/rateLimit/perSecond", "greater than 0");
        assertRefused(policy(new UsagePolicy.RateLimit(1.0, null, 0), null, null, null, null),
                "/policy/rateLimit/burst", "at least 1");
        assertRefused(policy(null, new UsagePolicy.Quota(null, null), null, null, null), "/policy/quota", "perDay");
        assertRefused(policy(null, new UsagePolicy.Quota(500L, 100L), null, null, null), "/policy/quota/perMonth",
                "cannot be smaller than the daily quota");
        assertRefused(policy(null, new UsagePolicy.Quota(-1L, null), null, null, null), "/policy/quota/perDay",
                "at least 1");
        assertRefused(policy(null, null, budget("EUR", "0.01", "20", "10"), null, null), "/policy/budget/softLimit",
                "must not exceed the hard limit");
        assertRefused(policy(null, null, budget("euro", "0.01", null, "10"), null, null), "/policy/budget/currency",
                "three-letter");
        assertRefused(policy(null, null, budget("EUR", "0.01", null, null), null, null), "/policy/budget/hardLimit",
                "soft limit, a hard limit or both");
        assertRefused(policy(null, null, budget("EUR", "-1", null, "10"), null, null), "/policy/budget/costPerCall",
                "negative");
        assertRefused(policy(null, null, budget("EUR", "20", null, "10"), null, null), "/policy/budget/hardLimit",
                "below the cost of a single call");
        assertRefused(policy(null, null, null, null, Map.of("1bad", "x")), "/policy/secrets/1bad", "secret names");
        assertRefused(policy(null, null, null, null, Map.of("api_key", "")), "/policy/secrets/api_key", "empty");
    }

    @Test
    void anOperationThatChangesDataIsNeitherReadOnlyNorUnlimitedWithoutConsent() {
        ContractViolation downgraded = catchViolation(() -> PolicyRules.checkRisk("DELETE", Risk.DESTRUCTIVE,
                Risk.READ_ONLY, null, true));
        assertThat(downgraded.pointer()).isEqualTo("/riskOverride");
        assertThat(downgraded.getMessage()).contains("a DELETE operation changes data and cannot be approved as READ_ONLY");

        ContractViolation unlimited = catchViolation(() -> PolicyRules.checkRisk("DELETE", Risk.DESTRUCTIVE, null,
                policy(null, null, null, List.of("planner-a"), null), false));
        assertThat(unlimited.pointer()).isEqualTo("/acceptUnlimited");
        assertThat(unlimited.getMessage()).contains("DESTRUCTIVE").contains("acceptUnlimited: true");

        assertThatCode(() -> PolicyRules.checkRisk("DELETE", Risk.DESTRUCTIVE, null, null, true))
                .doesNotThrowAnyException();
        assertThatCode(() -> PolicyRules.checkRisk("POST", Risk.WRITE_REMOTE, null,
                policy(null, new UsagePolicy.Quota(10L, null), null, null, null), false)).doesNotThrowAnyException();
        assertThatCode(() -> PolicyRules.checkRisk("GET", Risk.READ_ONLY, null, null, false)).doesNotThrowAnyException();
        // raising a GET's risk is the reviewer's right; it then needs limits or consent like any other
        assertThatThrownBy(() -> PolicyRules.checkRisk("GET", Risk.READ_ONLY, Risk.WRITE_REMOTE, null, false))
                .isInstanceOf(ContractViolation.class);
    }

    private static void assertRefused(PolicyRequest policy, String pointer, String problem) {
        ContractViolation violation = catchViolation(() -> PolicyRules.check(policy));
        assertThat(violation.pointer()).isEqualTo(pointer);
        assertThat(violation.getMessage()).startsWith("field " + pointer + ": ").contains(problem);
    }

    private static ContractViolation catchViolation(Runnable check) {
        try {
            check.run();
        } catch (ContractViolation violation) {
            return violation;
        }
        throw new AssertionError("accepted");
    }

    private static PolicyRequest policy(UsagePolicy.RateLimit rate, UsagePolicy.Quota quota, UsagePolicy.Budget budget,
            List<String> callers, Map<String, String> secrets) {
        return new PolicyRequest(rate, quota, budget, callers, secrets);
    }

    private static UsagePolicy.Budget budget(String currency, String cost, String soft, String hard) {
        return new UsagePolicy.Budget(currency, new BigDecimal(cost), soft == null ? null : new BigDecimal(soft),
                hard == null ? null : new BigDecimal(hard));
    }
}
