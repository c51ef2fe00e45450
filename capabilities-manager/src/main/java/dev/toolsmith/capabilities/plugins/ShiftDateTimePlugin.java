package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.Temporal;
import java.util.List;

/** Adds (or subtracts) an ISO-8601 amount to a date or date-time, calendar-aware. */
@ApplicationScoped
public class ShiftDateTimePlugin implements InternalPlugin {

    private static final ToolManifest MANIFEST = Manifests.internal("shift-date-time", "SHIFT_DATE_TIME",
            "Add time to a date",
            "Add or subtract an amount of time to a date or date-time: e.g. the date 30 days after an invoice, "
                    + "a deadline 2 weeks from now, a meeting 90 minutes later, one month before a renewal. "
                    + "Calendar-aware (2024-01-31 plus one month is 2024-02-29) and time-zone aware.",
            "time", List.of("date", "time", "calendar", "add", "deadline", "schedule", "duration"),
            """
            {"type": "object", "required": ["dateTime", "amount"],
             "properties": {
               "dateTime": {"type": "string", "minLength": 10, "description": "ISO-8601 date or date-time"},
               "amount": {"type": "string", "minLength": 2, "description": "ISO-8601 duration: P30D, PT90M, P1M, -P1W"},
               "subtract": {"type": "boolean", "description": "subtract the amount instead of adding it"},
               "timeZone": {"type": "string", "description": "IANA zone for local date-times, e.g. Europe/Paris"}
             }}""",
            """
            {"type": "object", "required": ["result"], "properties": {"result": {"type": "string"}}}""");

    @Override
    public ToolManifest manifest() {
        return MANIFEST;
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        ZoneId zone = Temporals.zone(inputs.path("timeZone").asText(null));
        Temporal start = Temporals.parse(inputs.get("dateTime").asText(), "dateTime", zone);
        Temporals.Amount amount = Temporals.Amount.parse(inputs.get("amount").asText());
        boolean subtract = inputs.path("subtract").asBoolean(false);
        if (start instanceof LocalDate && !amount.duration().isZero()) {
            throw new PluginFailure("'" + inputs.get("dateTime").asText() + "' is a date without a time of day: "
                    + "give a date-time to shift it by " + amount.duration());
        }
        Temporal shifted = subtract
                ? start.minus(amount.period()).minus(amount.duration())
                : start.plus(amount.period()).plus(amount.duration());
        ObjectNode out = Manifests.JSON.createObjectNode();
        out.put("result", shifted.toString());
        return out;
    }

    @Override
    public List<Example> examples() {
        return List.of(
                new Example("end of month", Manifests.object("{\"dateTime\": \"2024-01-31\", \"amount\": \"P1M\"}"),
                        Manifests.object("{\"result\": \"2024-02-29\"}")),
                new Example("across daylight saving",
                        Manifests.object("{\"dateTime\": \"2025-03-29T12:00\", \"amount\": \"P1D\","
                                + " \"timeZone\": \"Europe/Paris\"}"),
                        Manifests.object("{\"result\": \"2025-03-30T12:00+02:00[Europe/Paris]\"}")));
    }
}
