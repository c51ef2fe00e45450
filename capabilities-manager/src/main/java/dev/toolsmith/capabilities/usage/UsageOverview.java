package dev.toolsmith.capabilities.usage;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/** GET /usage: all wrapped calls in a period, per tool, and per caller across tools. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UsageOverview(String period, LocalDate from, LocalDate to, long calls, long succeeded, long errors,
        long denied, Double latencyP50Ms, Double latencyP95Ms, BigDecimal spend, List<UsageFigures> byTool,
        List<UsageFigures> byCaller) {
}
