package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.librarian.airlock.policy.PolicyRequest;
import java.util.List;
import java.util.UUID;

/** Bodies of the review endpoints. */
public final class ReviewRequests {

    private ReviewRequests() {
    }

    /**
     * Approve one candidate with a policy and, optionally, a risk the reviewer decided. A candidate that
     * replaces a tool in service (same id, another source) also needs {@code confirmReplace}: that tool's id.
     * {@code acceptUnlimited}: the admin confirms that a tool which changes data may run without any rate
     * limit, quota or budget (required then, as in the approve dialog).
     */
    public record Approve(PolicyRequest policy, String riskOverride, String confirmReplace, Boolean acceptUnlimited) {
    }

    /**
     * Change the policy of an approved or active tool; {@code acceptUnlimited} as on approval. Secrets left
     * out ({@code policy.secrets} null) keep the stored ones.
     */
    public record ChangePolicy(PolicyRequest policy, Boolean acceptUnlimited) {
    }

    /** Reject one candidate; the reason is required. */
    public record Reject(String reason) {
    }

    /**
     * Approve many candidates with one policy: the listed {@code ids}, or every candidate {@code filter}
     * matches, which must be {@code expectedCount} (the number the admin confirmed).
     */
    public record BulkApprove(List<UUID> ids, QueueFilter filter, Integer expectedCount, PolicyRequest policy,
            String riskOverride, Boolean acceptUnlimited) {
    }

    /** Reject many candidates with one reason: the listed {@code ids}, or what {@code filter} matches (as above). */
    public record BulkReject(List<UUID> ids, QueueFilter filter, Integer expectedCount, String reason) {
    }

    /**
     * The review queue's filters as {@code GET /tools/pending} takes them (same names, same meaning), for a
     * decision on everything that matches.
     */
    public record QueueFilter(UUID source, String status, String risk, String gap, String q) {
    }

    /**
     * The answer of a bulk decision: how many candidates it covered and each one's outcome.
     */
    public record BulkResult(int matched, int done, int failed, List<BulkOutcome> outcomes) {
    }

    /** The outcome for one id of a bulk request. */
    public record BulkOutcome(UUID id, boolean done, String status, String error) {
    }
}
