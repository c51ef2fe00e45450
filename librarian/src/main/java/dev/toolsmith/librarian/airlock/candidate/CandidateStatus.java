package dev.toolsmith.librarian.airlock.candidate;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** Where a candidate revision stands in the review flow. */
public enum CandidateStatus {
    /** Waits for an admin's decision. */
    PENDING,
    /** Approved; the engineer is building and verifying its wrapper. */
    APPROVED,
    /** Built, verified and registered. */
    ACTIVE,
    /** The wrapper failed verification: back in the queue with its report. */
    BUILD_FAILED,
    /** An admin said no, with a reason. */
    REJECTED,
    /** A later approved revision replaced it. */
    SUPERSEDED,
    /** The source stopped offering it before anyone decided. */
    WITHDRAWN,
    /** An admin retired the tool from the catalog after it was active ({@code DELETE /tools/{id}}). */
    RETIRED;

    /** Statuses in which a candidate may be approved or rejected. */
    public static final Set<CandidateStatus> DECIDABLE = Set.of(PENDING, BUILD_FAILED);

    public static Optional<CandidateStatus> parse(String text) {
        try {
            return Optional.of(valueOf(text.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
