package dev.toolsmith.capabilities.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.capabilities.health.HealthRules.Change;
import dev.toolsmith.capabilities.health.HealthRules.Decision;
import dev.toolsmith.capabilities.health.HealthRules.Probe;
import dev.toolsmith.capabilities.health.HealthRules.Standing;
import dev.toolsmith.capabilities.health.HealthRules.Window;
import dev.toolsmith.contracts.build.PluginStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HealthRulesTest {

    private static final HealthThresholds T = new HealthThresholds(3, 2, 0.5, 20, 10, 60);
    private static final Window QUIET = new Window(0, 0);

    @Test
    void nConsecutiveFailedProbesDisable() {
        assertThat(after(PluginStatus.ENABLED, false, 2, 0, QUIET).change()).isEqualTo(Change.NONE);
        Decision third = after(PluginStatus.ENABLED, false, 3, 0, QUIET);
        assertThat(third.change()).isEqualTo(Change.DISABLE);
        assertThat(third.reason()).startsWith("3 consecutive failed health probes (last: HTTP 500");
    }

    @Test
    void aFailedProbeIsConfirmedSoonerSoADeadApiIsOutWithinTwoIntervals() {
        Decision first = after(PluginStatus.ENABLED, false, 1, 0, QUIET);
        assertThat(first.nextProbeIn()).isEqualTo(Duration.ofSeconds(20));
        // worst case: failing right after a good probe, found one interval later, confirmed twice at 1/3 interval
        Duration worst = T.interval().plus(first.nextProbeIn()).plus(first.nextProbeIn());
        assertThat(worst).isLessThan(T.interval().multipliedBy(2));
        assertThat(after(PluginStatus.ENABLED, true, 0, 1, QUIET).nextProbeIn()).isEqualTo(T.interval());
    }

    @Test
    void anErrorRateAboveTheThresholdDisablesOnceTheWindowHoldsEnoughSamples() {
        assertThat(after(PluginStatus.ENABLED, true, 0, 5, new Window(9, 9)).change()).isEqualTo(Change.NONE);
        assertThat(after(PluginStatus.ENABLED, true, 0, 5, new Window(10, 5)).change()).isEqualTo(Change.NONE);
        Decision high = after(PluginStatus.ENABLED, true, 0, 5, new Window(10, 6));
        assertThat(high.change()).isEqualTo(Change.DISABLE);
        assertThat(high.reason()).isEqualTo("error rate 60% over the last 10 probes and calls (threshold 50%)");
    }

    @Test
    void mConsecutiveSuccessesReEnableWhatTheWorkerDisabledButNotWhatAnAdminDisabled() {
        assertThat(after(PluginStatus.DISABLED, true, 0, 1, QUIET).change()).isEqualTo(Change.NONE);
        assertThat(after(PluginStatus.DISABLED, true, 0, 2, QUIET).change()).isEqualTo(Change.ENABLE);
        assertThat(HealthRules.afterProbe(new Standing(PluginStatus.DISABLED, true, 0, 5, QUIET), Probe.passed(), T).change())
                .isEqualTo(Change.NONE);
        assertThat(after(PluginStatus.DISABLED, false, 7, 0, QUIET).change()).isEqualTo(Change.NONE);
    }

    private static Decision after(PluginStatus status, boolean ok, int failures, int successes, Window window) {
        return HealthRules.afterProbe(new Standing(status, false, failures, successes, window),
                ok ? Probe.passed() : Probe.failed("HTTP 500 from api"), T);
    }
}
