package dev.toolsmith.engineer.wrapper;

import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.verify.PluginVerifier;
import dev.toolsmith.engineer.verify.SuiteGenerator;
import dev.toolsmith.engineer.verify.VerificationSuite;
import java.util.List;
import java.util.UUID;

/**
 * Generation and verification of one approved tool, as plain code: the Quarkus service and the
 * benchmark both build through here, so what the benchmark measures is what the service does.
 */
public final class WrapperBuilder {

    private final WrapperManifestCompleter completer;
    private final SuiteGenerator suites;
    private final PluginVerifier verifier;

    public WrapperBuilder(WrapperManifestCompleter completer, SuiteGenerator suites, PluginVerifier verifier) {
        this.completer = completer;
        this.suites = suites;
        this.verifier = verifier;
    }

    /** Step one: the completed plugin, or why there is none. */
    public GeneratedWrapper generate(ToolApproved approved) throws WrapperGenerationException {
        return completer.complete(approved);
    }

    /** Step two: the suite for a generated plugin. */
    public VerificationSuite suite(ToolApproved approved, GeneratedWrapper wrapper) {
        return suites.generate(wrapper.plugin(), approved.operation(), verificationSecret(wrapper.plugin()));
    }

    /** Step three: run the suite; the result carries the plugin when every case passed. */
    public BuildResult verify(GeneratedWrapper wrapper, VerificationSuite suite) {
        VerificationReport report = verifier.verify(wrapper.plugin(), suite);
        if (report.passed()) {
            return new BuildResult(wrapper, suite, report, null);
        }
        return new BuildResult(wrapper, suite, report, failureReason(report));
    }

    /** All three steps. */
    public BuildResult build(ToolApproved approved) {
        GeneratedWrapper wrapper;
        try {
            wrapper = generate(approved);
        } catch (WrapperGenerationException e) {
            return new BuildResult(null, null, null, "generation failed: " + e.getMessage());
        } catch (RuntimeException e) {
            return new BuildResult(null, null, null, "generation failed unexpectedly: " + e);
        }
        VerificationSuite suite;
        try {
            suite = suite(approved, wrapper);
        } catch (RuntimeException e) {
            return new BuildResult(wrapper, null, null, "the verification suite could not be generated: " + e);
        }
        return verify(wrapper, suite);
    }

    static String failureReason(VerificationReport report) {
        List<CaseResult> failed = report.cases().stream().filter(c -> !c.passed()).toList();
        if (failed.isEmpty()) {
            return "verification failed";
        }
        CaseResult first = failed.get(0);
        return failed.size() + " of " + report.cases().size() + " verification cases failed; first: '" + first.name()
                + "': " + first.detail();
    }

    /** A placeholder that stands in for the tool's secret while it runs against the stub; never a real secret. */
    private static String verificationSecret(ToolManifest plugin) {
        String token = "verify-" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        return plugin.binding().auth().scheme() == AuthBinding.Scheme.BASIC ? "verifier:" + token : token;
    }
}
