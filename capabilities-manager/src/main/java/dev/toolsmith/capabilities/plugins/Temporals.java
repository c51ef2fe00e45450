package dev.toolsmith.capabilities.plugins;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;

/** Reads the ISO-8601 dates, date-times and amounts the date/time plugins accept. */
final class Temporals {

    private Temporals() {
    }

    /**
     * A date ({@code 2025-01-31}), a local date-time ({@code 2025-01-31T10:15}), one with an offset
     * ({@code ...+01:00} or {@code Z}) or with a zone ({@code ...+01:00[Europe/Paris]}). A local value is
     * placed in {@code zone} when one is given, so daylight-saving shifts are honoured.
     */
    static Temporal parse(String text, String input, ZoneId zone) {
        String value = text.trim();
        try {
            if (value.length() == 10) {
                return LocalDate.parse(value);
            }
            if (value.endsWith("]")) {
                return ZonedDateTime.parse(value);
            }
            if (value.endsWith("Z") || value.matches(".*[+-]\\d\\d:?\\d\\d$")) {
                OffsetDateTime offset = OffsetDateTime.parse(value);
                return zone == null ? offset : offset.atZoneSameInstant(zone);
            }
            LocalDateTime local = LocalDateTime.parse(value);
            return zone == null ? local : local.atZone(zone);
        } catch (DateTimeParseException e) {
            throw new PluginFailure("input '" + input + "': '" + text + "' is not an ISO-8601 date or date-time "
                    + "(e.g. 2025-01-31 or 2025-01-31T10:15:00Z)");
        }
    }

    static ZoneId zone(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return ZoneId.of(text.trim());
        } catch (DateTimeException e) {
            throw new PluginFailure("input 'timeZone': unknown time zone '" + text + "' (use an IANA name such as "
                    + "Europe/Paris)");
        }
    }

    /** An ISO-8601 amount with date and/or time parts, e.g. {@code P1M}, {@code PT90M}, {@code P1DT12H}. */
    record Amount(Period period, Duration duration) {

        static Amount parse(String text) {
            String value = text.trim().toUpperCase();
            boolean negative = value.startsWith("-");
            if (negative) {
                value = value.substring(1);
            }
            try {
                int t = value.indexOf('T');
                Period period = t < 0 ? Period.parse(value) : t == 1 ? Period.ZERO : Period.parse(value.substring(0, t));
                Duration duration = t < 0 ? Duration.ZERO : Duration.parse("P" + value.substring(t));
                return negative ? new Amount(period.negated(), duration.negated()) : new Amount(period, duration);
            } catch (DateTimeParseException e) {
                throw new PluginFailure("input 'amount': '" + text + "' is not an ISO-8601 duration (e.g. P3D, PT2H30M, "
                        + "P1Y2M, P1DT12H, -P1W)");
            }
        }
    }
}
