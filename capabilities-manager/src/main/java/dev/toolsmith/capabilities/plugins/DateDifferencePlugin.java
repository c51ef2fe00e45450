package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.chrono.ChronoZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.Locale;

/** Counts whole units (days, hours, months, ...) between two dates or date-times. */
@ApplicationScoped
public class DateDifferencePlugin implements InternalPlugin {

    private static final ToolManifest MANIFEST = Manifests.internal("date-difference", "DATE_DIFFERENCE",
            "Time between two dates",
            "Count the whole days, weeks, months, years, hours, minutes or seconds between two dates or date-times, "
                    + "e.g. days until a deadline, age in years, hours between two timestamps. Negative when 'to' is "
                    + "before 'from'.",
            "time", List.of("date", "time", "difference", "between", "age", "days until", "duration"),
            """
            {"type": "object", "required": ["from", "to"],
             "properties": {
               "from": {"type": "string", "minLength": 10, "description": "ISO-8601 date or date-time"},
               "to": {"type": "string", "minLength": 10, "description": "ISO-8601 date or date-time"},
               "unit": {"enum": ["years", "months", "weeks", "days", "hours", "minutes", "seconds"],
                        "description": "default days"},
               "timeZone": {"type": "string", "description": "IANA zone for local date-times; default UTC"}
             }}""",
            """
            {"type": "object", "required": ["amount", "unit"],
             "properties": {"amount": {"type": "integer"}, "unit": {"type": "string"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        ZoneId zone = Temporals.zone(inputs.path("timeZone").asText(null));
        Temporal from = Temporals.parse(inputs.get("from").asText(), "from", zone);
        Temporal to = Temporals.parse(inputs.get("to").asText(), "to", zone);
        String unitName = inputs.path("unit").asText("days");
        ChronoUnit unit = ChronoUnit.valueOf(unitName.toUpperCase(Locale.ROOT));
        long amount;
        if (from instanceof LocalDate a && to instanceof LocalDate b) {
            if (unit.isTimeBased()) {
                amount = unit.between(a.atStartOfDay(), b.atStartOfDay());
            } else {
                amount = unit.between(a, b);
            }
        } else {
            ZoneId effective = zone == null ? ZoneOffset.UTC : zone;
            amount = unit.between(zoned(from, effective), zoned(to, effective));
        }
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("amount", amount);
        out.put("unit", unitName);
        return out;
    }

    /** Mixed kinds are compared on one time line: dates at the start of their day in the zone. */
    private static ZonedDateTime zoned(Temporal value, ZoneId zone) {
        if (value instanceof LocalDate date) {
            return date.atStartOfDay(zone);
        }
        if (value instanceof LocalDateTime local) {
            return local.atZone(zone);
        }
        if (value instanceof ChronoZonedDateTime<?> zoned) {
            return ZonedDateTime.from(zoned);
        }
        return ZonedDateTime.from(value);
    }

    @Override
    public List<Example> examples() {
        return List.of(
                new Example("days in a leap February", Manifests.object("{\"from\": \"2024-02-01\", \"to\": \"2024-03-01\"}"),
                        Manifests.object("{\"amount\": 29, \"unit\": \"days\"}")),
                new Example("hours across offsets",
                        Manifests.object("{\"from\": \"2025-01-01T00:00:00Z\", \"to\": \"2025-01-01T12:00:00+02:00\","
                                + " \"unit\": \"hours\"}"),
                        Manifests.object("{\"amount\": 10, \"unit\": \"hours\"}")));
    }
}
