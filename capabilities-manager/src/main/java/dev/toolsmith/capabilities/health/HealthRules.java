package dev.toolsmith.capabilities.health;

import dev.toolsmith.contracts.build.PluginStatus;
import java.time.Duration;
import java.util.Locale;

/**
 * When a probe result changes a plugin's status, and when to probe next. Pure: the worker feeds it the
 * counters after the probe and the rolling window; tests drive it directly.
 * <ul>
 * <li>A serving plugin is disabled after {@code failuresToDisable} consecutive failed probes, or when more
 * than {@code errorRateThreshold} of the window's probes and calls failed (once the window holds
 * {@code errorRateMinSamples}).</li>
 * <li>A plugin the worker disabled is re-enabled after {@code successesToEnable} consecutive successes; one
 * an admin disabled stays disabled until an admin enables it.</li>
 * <li>After a failed probe of a serving plugin the next one comes at
 * {@link HealthThresholds#confirmationInterval()}, so a dead API is out within two intervals.</li>
 * </ul>
 */
public final class HealthRules {

    private HealthRules() {
    }

    public enum Change {
        NONE,
        DISABLE,
        ENABLE
    }

    public record Decision(Change change, String reason, Duration nextProbeIn) {
    }

    /** The rolling window: samples (probes and real calls) since the last status change, and how many failed. */
    public record Window(int samples, int failures) {

        public double errorRate() {
            return samples == 0 ? 0 : (double) failures / samples;
        }
    }

    /**
     * Where a plugin stands once its latest probe is counted: its status, whether an admin disabled it, the
     * consecutive failed and successful probes, and the rolling window.
     */
    public record Standing(PluginStatus status, boolean disabledByAdmin, int consecutiveFailures,
            int consecutiveSuccesses, Window window) {
    }

    /** The latest probe: whether it passed and, when it did not, why. */
    public record Probe(boolean ok, String failure) {

        public static Probe passed() {
            return new Probe(true, null);
        }

        public static Probe failed(String failure) {
            return new Probe(false, failure);
        }
    }

    public static Decision afterProbe(Standing standing, Probe probe, HealthThresholds t) {
        PluginStatus status = standing.status();
        int consecutiveFailures = standing.consecutiveFailures();
        int consecutiveSuccesses = standing.consecutiveSuccesses();
        Window window = standing.window();
        boolean probeOk = probe.ok();
        if (status == PluginStatus.DISABLED) {
            if (!standing.disabledByAdmin() && probeOk && consecutiveSuccesses >= t.successesToEnable()) {
                return new Decision(Change.ENABLE, consecutiveSuccesses + " consecutive successful health probes",
                        t.interval());
            }
            return new Decision(Change.NONE, null, t.interval());
        }
        if (!probeOk && consecutiveFailures >= t.failuresToDisable()) {
            return new Decision(Change.DISABLE, consecutiveFailures + " consecutive failed health probes (last: "
                    + probe.failure() + ")", t.interval());
        }
        if (window.samples() >= t.errorRateMinSamples() && window.errorRate() > t.errorRateThreshold()) {
            return new Decision(Change.DISABLE, String.format(Locale.ROOT,
                    "error rate %.0f%% over the last %d probes and calls (threshold %.0f%%)",
                    window.errorRate() * 100, window.samples(), t.errorRateThreshold() * 100), t.interval());
        }
        return new Decision(Change.NONE, null, probeOk ? t.interval() : t.confirmationInterval());
    }
}
