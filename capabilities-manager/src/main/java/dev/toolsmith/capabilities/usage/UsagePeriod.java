package dev.toolsmith.capabilities.usage;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;

/** A calendar period in UTC, as quotas and budgets count: the current day or month. */
public record UsagePeriod(String name, LocalDate start, LocalDate end) {

    public static UsagePeriod parse(String name, Instant now) {
        LocalDate today = now.atOffset(ZoneOffset.UTC).toLocalDate();
        String normalized = name == null || name.isBlank() ? "month" : name.trim().toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case "day" -> new UsagePeriod("day", today, today.plusDays(1));
            case "month" -> new UsagePeriod("month", today.withDayOfMonth(1), today.withDayOfMonth(1).plusMonths(1));
            default -> throw new IllegalArgumentException("period must be 'day' or 'month', not '" + name + "'");
        };
    }

    public Instant from() {
        return start.atStartOfDay().toInstant(ZoneOffset.UTC);
    }

    public Instant to() {
        return end.atStartOfDay().toInstant(ZoneOffset.UTC);
    }
}
