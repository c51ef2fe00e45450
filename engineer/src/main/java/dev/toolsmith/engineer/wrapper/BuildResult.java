package dev.toolsmith.engineer.wrapper;

import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.engineer.verify.VerificationSuite;

/**
 * What building one approved tool produced. On success {@code wrapper} holds the plugin and the report
 * passed; on failure {@code failureReason} says what to fix, and {@code suite}/{@code report} are there
 * when generation got that far.
 */
public record BuildResult(GeneratedWrapper wrapper, VerificationSuite suite, VerificationReport report,
        String failureReason) {

    public boolean succeeded() {
        return failureReason == null;
    }
}
