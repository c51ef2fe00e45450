package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.capabilities.health.HealthStore;
import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.usage.ToolUsage;
import dev.toolsmith.capabilities.usage.UsagePeriod;
import dev.toolsmith.capabilities.usage.UsageQueries;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.tool.Risk;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * {@code describe_tool}: everything a planner needs to call one tool well: its full input and output schema,
 * the limits of the policy it is bound by with what is left of them now, and the tool's health. Reads the
 * database (usage counters, health row): call it on a worker thread.
 */
@ApplicationScoped
public class ToolDescriptions {

    private final PoliciesInForce policies;
    private final UsageQueries usage;
    private final HealthStore health;

    public ToolDescriptions(PoliciesInForce policies, UsageQueries usage, HealthStore health) {
        this.policies = policies;
        this.usage = usage;
        this.health = health;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Description(String id, String verb, String name, String description, Risk risk, PluginStatus status,
            JsonNode inputSchema, JsonNode outputSchema, Limits policy, Health health) {
    }

    /** The limits the caller is bound by; {@code *Left} is what remains now (quota and budget are per tool). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Limits(UsagePolicy.RateLimit rateLimit, Long quotaPerDay, Long quotaLeftToday, Long quotaPerMonth,
            Long quotaLeftThisMonth, String currency, BigDecimal costPerCall, BigDecimal budgetPerMonth,
            BigDecimal budgetLeftThisMonth) {
    }

    /** Internal plugins are always {@code ENABLED} with no probe; wrapped ones carry their probe state. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Health(PluginStatus status, String reason, Boolean lastProbeOk, Instant lastProbeAt,
            Integer consecutiveFailures) {
    }

    public Description describe(Plugin plugin) {
        return new Description(plugin.toolId(), plugin.verb(), plugin.manifest().name(), plugin.manifest().description(),
                plugin.risk(), plugin.status(), plugin.manifest().inputSchema(), plugin.manifest().outputSchema(),
                limits(plugin), health(plugin));
    }

    private Limits limits(Plugin plugin) {
        UsagePolicy policy = policies.of(plugin);
        if (policy.rateLimit() == null && policy.quota() == null && policy.budget() == null) {
            return new Limits(null, null, null, null, null, null, null, null, null);
        }
        Instant now = Instant.now();
        ToolUsage used = usage.forTool(plugin.toolId(), policy, UsagePeriod.parse("month", now), now);
        Long perDay = null;
        Long leftToday = null;
        Long perMonth = null;
        Long leftMonth = null;
        if (used.quota() != null) {
            perDay = used.quota().perDay();
            leftToday = perDay == null ? null : Math.max(0, perDay - used.quota().usedToday());
            perMonth = used.quota().perMonth();
            leftMonth = perMonth == null ? null : Math.max(0, perMonth - used.quota().usedThisMonth());
        }
        UsagePolicy.Budget budget = policy.budget();
        return new Limits(policy.rateLimit(), perDay, leftToday, perMonth, leftMonth,
                budget == null ? null : budget.currency(), budget == null ? null : budget.costPerCall(),
                budget == null ? null : budget.hardLimit(), used.budget() == null ? null : used.budget().remaining());
    }

    private Health health(Plugin plugin) {
        return health.find(plugin.toolId())
                .map(row -> new Health(plugin.status(), plugin.statusReason(), row.lastProbeOk(), row.lastProbeAt(),
                        row.consecutiveFailures()))
                .orElseGet(() -> new Health(plugin.status(), plugin.statusReason(), null, null, null));
    }
}
