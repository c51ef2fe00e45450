package dev.toolsmith.contracts.build;

import java.util.List;

/** What the engineer's generated suite found; {@code passed} only when every case passed. */
public record VerificationReport(boolean passed, List<CaseResult> cases, long durationMs) {

    public VerificationReport {
        cases = cases == null ? List.of() : List.copyOf(cases);
    }
}
