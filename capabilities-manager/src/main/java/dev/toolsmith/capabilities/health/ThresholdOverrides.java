package dev.toolsmith.capabilities.health;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An admin's per-plugin overrides of the health thresholds; a null field keeps the configured default.
 * Checked here so a bad value is a 400 naming the field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ThresholdOverrides(Integer failuresToDisable, Integer successesToEnable, Double errorRateThreshold,
        Integer errorRateWindow, Integer intervalSeconds) {

    public ThresholdOverrides {
        positive("failuresToDisable", failuresToDisable);
        positive("successesToEnable", successesToEnable);
        positive("errorRateWindow", errorRateWindow);
        positive("intervalSeconds", intervalSeconds);
        if (errorRateThreshold != null && !(errorRateThreshold > 0 && errorRateThreshold <= 1)) {
            throw new IllegalArgumentException("errorRateThreshold must be in (0, 1], got " + errorRateThreshold);
        }
    }

    private static void positive(String field, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(field + " must be at least 1, got " + value);
        }
    }
}
