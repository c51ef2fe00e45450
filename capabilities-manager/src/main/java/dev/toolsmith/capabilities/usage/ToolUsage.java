package dev.toolsmith.capabilities.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * GET /plugins/{id}/usage: a tool's usage in a period (totals, per caller, and a series by hour for a day
 * or by day for a month), against its quota and budget.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolUsage(String toolId, String period, LocalDate from, LocalDate to, long calls, long succeeded,
        long errors, long denied, Double latencyP50Ms, Double latencyP95Ms, BigDecimal spend, QuotaUse quota,
        BudgetUse budget, List<UsageFigures> perCaller, List<UsageFigures> series) {

    /** The quota counters (exact: reserved before each call). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record QuotaUse(Long perDay, long usedToday, Long perMonth, long usedThisMonth) {
    }

    /** This month's spend (exact: reserved before each call) against the budget. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BudgetUse(String currency, BigDecimal costPerCall, BigDecimal softLimit, BigDecimal hardLimit,
            BigDecimal spentThisMonth, BigDecimal remaining, boolean softLimitCrossed) {
    }
}
