package dev.toolsmith.capabilities.health;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;

/** The thresholds in force for one plugin: its own overrides, else the configured defaults. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HealthThresholds(int failuresToDisable, int successesToEnable, double errorRateThreshold,
        int errorRateWindow, int errorRateMinSamples, long intervalSeconds) {

    public Duration interval() {
        return Duration.ofSeconds(intervalSeconds);
    }

    /** A failed probe is confirmed sooner than the regular interval, so a dead API leaves within two intervals. */
    public Duration confirmationInterval() {
        long seconds = Math.max(1, intervalSeconds / Math.max(1, failuresToDisable));
        return Duration.ofSeconds(seconds);
    }
}
