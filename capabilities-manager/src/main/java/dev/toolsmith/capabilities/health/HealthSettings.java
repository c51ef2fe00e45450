package dev.toolsmith.capabilities.health;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Defaults of the health worker; each plugin may override the thresholds (PUT /plugins/{id}/health-thresholds). */
@ConfigMapping(prefix = "toolsmith.health")
public interface HealthSettings {

    /** Turns probing off (manual disable/enable still work). */
    @WithDefault("true")
    boolean enabled();

    /** How often the worker looks for due probes (each plugin is probed on its own interval). */
    @WithDefault("1s")
    Duration tick();

    /** Wait after start-up before the first tick. */
    @WithDefault("3s")
    Duration startDelay();

    /** Probe interval of plugins whose manifest gives none. */
    @WithDefault("60s")
    Duration defaultInterval();

    /** Consecutive failed probes that disable a plugin. */
    @WithDefault("3")
    int failuresToDisable();

    /** Consecutive successful probes that re-enable a plugin the health worker disabled. */
    @WithDefault("2")
    int successesToEnable();

    /** Error rate over the window (probes and real calls) above which a plugin is disabled. */
    @WithDefault("0.5")
    double errorRateThreshold();

    /** How many recent probes and calls the error rate looks at. */
    @WithDefault("20")
    int errorRateWindow();

    /** The error rate is only judged once the window holds this many samples. */
    @WithDefault("10")
    int errorRateMinSamples();

    /** How many status changes and probe results GET /plugins/{id} shows. */
    @WithDefault("50")
    int historyLimit();
}
