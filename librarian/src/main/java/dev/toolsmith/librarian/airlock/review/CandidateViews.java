package dev.toolsmith.librarian.airlock.review;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.librarian.airlock.policy.PolicyView;
import dev.toolsmith.librarian.airlock.warning.ServerAddressWarnings;
import dev.toolsmith.librarian.airlock.warning.ServerWarning;
import dev.toolsmith.librarian.airlock.warning.TextWarning;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** How the review queue shows candidates. */
public final class CandidateViews {

    private CandidateViews() {
    }

    /** What the queue calls the origin of a find-or-build draft, which has no source. */
    public static final String DRAFT_SOURCE_NAME = "LLM draft (find-or-build)";

    /**
     * One line of the queue. {@code changed} means a diff against an approved revision exists;
     * {@code draftGap} is set only for an LLM draft (no source) and names the gap it was drafted for;
     * {@code collision}, for an undecided candidate, is the kind of its most serious collision with a tool
     * in service (REFUSED, REPLACES, SAME_NAME; see {@link Collision}), null when none.
     */
    public record Summary(UUID id, UUID sourceId, String sourceName, String operationKey, int revision, String toolId,
            String verb, String name, String description, String risk, String status, boolean changed,
            List<String> gaps, String draftGap, OffsetDateTime discoveredAt, OffsetDateTime updatedAt,
            String collision) {
    }

    /** A page of the queue. */
    public record Page(List<Summary> items, int page, int size, long total) {
    }

    /** A gap this candidate could fill. */
    public record GapTag(String normalizedVerb, String actionVerb, long timesSeen, double score, double confidence) {
    }

    /**
     * A tool in service that this candidate collides with ({@link ToolCollisions}): {@code kind} REFUSED
     * (cannot be approved; {@code message} says why), REPLACES (approval needs {@code confirmReplace} =
     * {@code toolId} and a stated policy) or SAME_NAME (a warning). {@code source} names where the tool in
     * service came from (a source's name, or the internal plugins); {@code diff} is from that tool's
     * manifest to this candidate's (endpoint, method, risk, parameters, ...); {@code activeRisk} and
     * {@code activePolicy} are what it runs under now (secret names only).
     */
    public record Collision(String kind, String toolId, String source, UUID sourceId, String operationKey,
            UUID candidateId, List<String> matchedOn, String message, JsonNode diff, String activeRisk,
            PolicyView activePolicy) {
    }

    /**
     * Everything a reviewer needs: the full manifest, the risk derived from the definition and the one
     * decided, the diff against the approved revision, the gaps it would fill, the latest build report,
     * and the policy (secret names only). {@code draftGap}: as in {@link Summary}. {@code collisions}:
     * the tools in service it would replace or clash with, most serious first; each one's message is
     * also among the {@code warnings}. {@code serverWarnings}: server URLs on link-local/metadata, loopback,
     * private or internal addresses ({@link ServerAddressWarnings}); their messages are among the
     * {@code warnings} too.
     */
    public record Details(UUID id, UUID sourceId, String sourceName, String operationKey, int revision, String toolId,
            String status, String derivedRisk, String riskOverride, String risk, JsonNode manifest, JsonNode operation,
            JsonNode warnings, JsonNode diff, Integer approvedRevision, List<GapTag> gaps, PolicyView policy,
            String decidedBy, OffsetDateTime decidedAt, String rejectReason, JsonNode buildReport, String buildFailure,
            String draftGap, OffsetDateTime discoveredAt, OffsetDateTime updatedAt, List<Collision> collisions,
            List<ServerWarning> serverWarnings, List<TextWarning> textWarnings) {
    }
}
