package dev.toolsmith.engineer.verify;

import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.ExecutionOutcome;
import dev.toolsmith.sandbox.SecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import java.util.ArrayList;
import java.util.List;

/**
 * The optional live check after a passed stub verification: one call of the plugin's health probe
 * against the real server, through the same executor and limits real calls use, with the approval's
 * secret. Off by default (it reaches the internet and spends the API's quota); a failure fails the build
 * with the probe's reason.
 */
public final class LiveSmokeCheck {

    private final WrappedToolExecutor executor;

    public LiveSmokeCheck(WrappedToolExecutor executor) {
        this.executor = executor;
    }

    public CaseResult probe(ToolManifest plugin, SecretResolver secrets, ExecutionLimits limits) {
        HealthProbe probe = plugin.healthProbe();
        if (probe == null || !probe.available()) {
            return new CaseResult("live health probe", "LIVE_SMOKE", true,
                    "skipped: " + (probe == null ? "no health probe" : probe.unavailableReason()));
        }
        ToolManifest probeTool = new ToolManifest(plugin.id() + "#health", plugin.verb(), plugin.name(),
                plugin.description(), plugin.source(), plugin.namespace(), plugin.domain(), plugin.tags(), null, null,
                plugin.risk(), probe.binding(), null, plugin.version(), null);
        ExecutionOutcome outcome = executor.execute(probeTool, probe.inputs(), secrets, limits);
        String target = probe.binding().method() + " " + probe.binding().serverUrl() + probe.binding().pathTemplate();
        return outcome.succeeded()
                ? new CaseResult("live health probe", "LIVE_SMOKE", true, target + " answered HTTP " + outcome.httpStatus())
                : new CaseResult("live health probe", "LIVE_SMOKE", false, target + ": " + outcome.failureKind() + " "
                        + outcome.reason());
    }

    /** The report with the live case added; it passes only if both did. */
    public static VerificationReport withLiveCase(VerificationReport report, CaseResult live) {
        List<CaseResult> cases = new ArrayList<>(report.cases());
        cases.add(live);
        return new VerificationReport(report.passed() && live.passed(), cases, report.durationMs());
    }
}
