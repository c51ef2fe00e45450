package dev.toolsmith.capabilities.health;

import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.capabilities.usage.CallRecord;
import dev.toolsmith.capabilities.wrapped.WrappedCalls;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.sandbox.ExecutionOutcome;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Probes every wrapped HTTP plugin on its interval with its manifest's health probe, through the same
 * sandboxed executor, limits and timeout as real calls, and applies {@link HealthRules}: disables a
 * failing plugin (announced on {@code plugin-status} with a notification), keeps probing it, and
 * re-enables it after it recovers. A plugin an admin disabled is not probed on schedule (only an admin's
 * "probe now" reaches it) until an admin enables it again. Due probes are claimed in the database, so
 * with several replicas each probe still runs once.
 */
@ApplicationScoped
public class HealthWorker {

    private static final Logger LOG = Logger.getLogger(HealthWorker.class);
    private static final String WORKER = "health-worker";

    private final HealthSettings settings;
    private final HealthStore store;
    private final PluginRegistry registry;
    private final PoliciesInForce policies;
    private final WrappedCalls calls;
    private final PluginStatusChanges changes;

    public HealthWorker(HealthSettings settings, HealthStore store, PluginRegistry registry, PoliciesInForce policies,
            WrappedCalls calls, PluginStatusChanges changes) {
        this.settings = settings;
        this.store = store;
        this.registry = registry;
        this.policies = policies;
        this.calls = calls;
        this.changes = changes;
    }

    @Scheduled(every = "${toolsmith.health.tick:1s}", delayed = "${toolsmith.health.start-delay:3s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        if (!settings.enabled()) {
            return;
        }
        try {
            store.trackNewPlugins();
            store.probeSoonAfterFailedCalls();
            for (String toolId : store.claimDue(32)) {
                Infrastructure.getDefaultWorkerPool().execute(() -> probeQuietly(toolId));
            }
        } catch (RuntimeException e) {
            LOG.warnf("health tick failed, retried on the next one: %s", e.getMessage());
        }
    }

    private void probeQuietly(String toolId) {
        try {
            probe(toolId, WORKER);
        } catch (RuntimeException e) {
            LOG.errorf(e, "health probe of %s failed unexpectedly; retried after its interval", toolId);
        }
    }

    /** Probes one plugin now and applies the result; empty when it is not a tracked wrapped plugin. Blocking. */
    public Optional<ProbeReport> probe(String toolId, String by) {
        Optional<Plugin> found = wrappedPlugin(toolId);
        Optional<HealthStore.HealthRow> tracked = found.isPresent() ? store.find(toolId) : Optional.empty();
        if (found.isEmpty() || tracked.isEmpty()) {
            if (found.isEmpty()) {
                // unregistered since it was tracked: look again later
                store.scheduleNextProbe(toolId, Instant.now().plus(settings.defaultInterval()));
            }
            return Optional.empty();
        }
        if (WORKER.equals(by) && "ADMIN".equals(tracked.get().disabledBy())) {
            // disabled by an admin after this probe was claimed: not called; due again once enabled
            store.scheduleNextProbe(toolId, Instant.now());
            return Optional.empty();
        }
        Plugin plugin = found.get();
        HealthThresholds thresholds = thresholds(plugin, tracked.get().overrides());
        Instant start = Instant.now();
        HealthProbe probe = plugin.manifest().healthProbe();
        if (probe == null || !probe.available()) {
            return Optional.of(judgeWithoutProbe(plugin, tracked.get(), thresholds, start, by));
        }
        ExecutionOutcome outcome = calls.probe(plugin.manifest(), policies.of(plugin));
        boolean ok = outcome.succeeded();
        String reason = ok ? null : outcome.reason();
        HealthStore.HealthRow row = store.recordProbe(new CallRecord(toolId, null, CallRecord.Kind.PROBE,
                ok ? CallRecord.Outcome.SUCCEEDED : CallRecord.Outcome.FAILED, !ok, outcome.durationMs(),
                outcome.httpStatus(), outcome.failureKind() == null ? null : outcome.failureKind().name(), reason,
                BigDecimal.ZERO, start));
        HealthRules.Window window = store.window(toolId, row.windowSince(), thresholds.errorRateWindow());
        HealthRules.Decision decision = HealthRules.afterProbe(new HealthRules.Standing(PluginStatus.valueOf(row.status()),
                "ADMIN".equals(row.disabledBy()), row.consecutiveFailures(), row.consecutiveSuccesses(), window),
                ok ? HealthRules.Probe.passed() : HealthRules.Probe.failed(reason), thresholds);
        PluginStatus after = apply(toolId, PluginStatus.valueOf(row.status()), decision, by);
        // measured from the probe's start, so slow (timing-out) probes do not stretch the schedule
        Instant next = start.plus(decision.nextProbeIn());
        store.scheduleNextProbe(toolId, next);
        return Optional.of(new ProbeReport(toolId, true, ok, outcome.durationMs(), outcome.httpStatus(), reason, after,
                decision.change().name(), next));
    }

    /**
     * The wrapped plugin, read from its row when this replica's snapshot does not hold it yet. A registration
     * commits its row before the snapshot takes it in, and the worker tracks new rows on its next tick; a
     * probe claimed in that gap must not push the plugin's first probe out by a whole interval.
     */
    private Optional<Plugin> wrappedPlugin(String toolId) {
        Optional<Plugin> known = registry.byToolId(toolId);
        if (known.isEmpty()) {
            ReactiveBridge.await(() -> registry.refresh(toolId));
            known = registry.byToolId(toolId);
        }
        return known.filter(p -> p.type() == PluginType.WRAPPED_HTTP);
    }

    /** A plugin whose API offers no safe probe is judged by the error rate of its real calls alone. */
    private ProbeReport judgeWithoutProbe(Plugin plugin, HealthStore.HealthRow row, HealthThresholds thresholds,
            Instant start, String by) {
        PluginStatus status = PluginStatus.valueOf(row.status());
        HealthRules.Window window = store.window(plugin.toolId(), row.windowSince(), thresholds.errorRateWindow());
        HealthRules.Decision decision = status == PluginStatus.DISABLED
                ? new HealthRules.Decision(HealthRules.Change.NONE, null, thresholds.interval())
                : HealthRules.afterProbe(new HealthRules.Standing(status, false, 0, 0, window), HealthRules.Probe.passed(),
                        thresholds);
        PluginStatus after = apply(plugin.toolId(), status, decision, by);
        Instant next = start.plus(thresholds.interval());
        store.scheduleNextProbe(plugin.toolId(), next);
        String why = plugin.manifest().healthProbe() == null ? "the manifest has no health probe"
                : plugin.manifest().healthProbe().unavailableReason();
        return new ProbeReport(plugin.toolId(), false, true, null, null, "not probed: " + why, after,
                decision.change().name(), next);
    }

    private PluginStatus apply(String toolId, PluginStatus current, HealthRules.Decision decision, String by) {
        if (decision.change() == HealthRules.Change.NONE) {
            return current;
        }
        PluginStatus target = decision.change() == HealthRules.Change.DISABLE ? PluginStatus.DISABLED
                : PluginStatus.ENABLED;
        try {
            ReactiveBridge.await(() -> changes.change(toolId, target, decision.reason(),
                    PluginStatusChanges.Actor.HEALTH, by));
        } catch (RuntimeException e) {
            // the counters still say what happened: the next probe decides again
            LOG.errorf(e, "could not set %s to %s", toolId, target);
            return current;
        }
        return target;
    }

    HealthThresholds thresholds(Plugin plugin, ThresholdOverrides own) {
        HealthProbe probe = plugin.manifest().healthProbe();
        long interval = own.intervalSeconds() != null ? own.intervalSeconds()
                : probe != null && probe.available() ? probe.intervalSeconds()
                        : Math.max(1, settings.defaultInterval().toSeconds());
        return new HealthThresholds(
                own.failuresToDisable() != null ? own.failuresToDisable() : settings.failuresToDisable(),
                own.successesToEnable() != null ? own.successesToEnable() : settings.successesToEnable(),
                own.errorRateThreshold() != null ? own.errorRateThreshold() : settings.errorRateThreshold(),
                own.errorRateWindow() != null ? own.errorRateWindow() : settings.errorRateWindow(),
                Math.min(settings.errorRateMinSamples(),
                        own.errorRateWindow() != null ? own.errorRateWindow() : settings.errorRateWindow()),
                interval);
    }

    /** The thresholds in force for a plugin, for the REST API. */
    public Optional<HealthThresholds> thresholdsOf(String toolId) {
        return registry.byToolId(toolId).flatMap(plugin -> store.find(toolId)
                .map(row -> thresholds(plugin, row.overrides())));
    }

}
