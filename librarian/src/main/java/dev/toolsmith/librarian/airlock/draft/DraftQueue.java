package dev.toolsmith.librarian.airlock.draft;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.notification.Notifier;
import dev.toolsmith.librarian.airlock.review.ReviewService;
import dev.toolsmith.librarian.airlock.source.QueueUpdater;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Files a checked find-or-build draft into the review queue as a PENDING candidate of no source, tagged
 * with its gap ({@code draft_gap}), with its audit entry and an admin notification, in one transaction.
 * One draft per gap, as {@link QueueUpdater} treats a source's operation: the same content again changes
 * nothing (the engineer re-sends a draft whose delivery it could not confirm), a different one updates an
 * undecided draft in place, and after a decision it becomes the next revision. Drafts are never approved.
 */
@ApplicationScoped
public class DraftQueue {

    /** What a delivery did to the queue. */
    public enum Outcome { CREATED, UPDATED, UNCHANGED }

    /** The answer of {@code POST /tools/pending/drafts}. */
    public record Filed(UUID id, String normalizedVerb, int revision, String status, Outcome outcome) {
    }

    static final String OPERATION_KEY_PREFIX = "draft for gap ";

    private final ObjectMapper mapper;
    private final AuditLog audit;
    private final Notifier notifier;

    public DraftQueue(ContractCodec codec, AuditLog audit, Notifier notifier) {
        this.mapper = codec.mapper();
        this.audit = audit;
        this.notifier = notifier;
    }

    public Uni<Filed> file(DraftIntake.ValidDraft draft, String actor) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String gap = draft.normalizedVerb();
        return Panache.withTransaction(() -> lockGap(gap)
                .chain(() -> newestDraft(gap))
                .chain(latest -> {
                    ToolManifest manifest = draft.manifest();
                    // the stored hash recomputed in the version it names: a draft hashed before RFC 8785 is no change
                    if (latest != null && ContentHash.matches(latest.contentHash, manifest, mapper)) {
                        return Uni.createFrom().item(filed(latest, Outcome.UNCHANGED));
                    }
                    boolean inPlace = latest != null && CandidateStatus.PENDING.name().equals(latest.status);
                    CandidateEntity row = inPlace ? latest : newRevision(gap, latest == null ? 1 : latest.revision + 1, now);
                    String before = inPlace ? latest.contentHash : null;
                    fill(row, draft, now);
                    Outcome outcome = inPlace ? Outcome.UPDATED : Outcome.CREATED;
                    Uni<?> saved = inPlace ? Uni.createFrom().voidItem() : row.persist();
                    return saved.chain(() -> audit.record(actor, AuditLog.Action.DRAFT_FILED, "candidate",
                                    row.id.toString(), summary(row, draft, outcome),
                                    before == null ? null : Map.of("contentHash", before), after(row)))
                            .chain(() -> notify(row, draft, outcome))
                            .replaceWith(filed(row, outcome));
                }));
    }

    private static Uni<CandidateEntity> newestDraft(String gap) {
        return CandidateEntity.find("draftGap = ?1 order by revision desc", gap).firstResult();
    }

    /** Two deliveries for one gap (replicas, retries) file one draft: they take turns within the transaction. */
    private static Uni<Void> lockGap(String gap) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT 1 FROM pg_advisory_xact_lock(hashtext(:key))", Integer.class)
                .setParameter("key", OPERATION_KEY_PREFIX + gap).getSingleResult()).replaceWithVoid();
    }

    private static CandidateEntity newRevision(String gap, int revision, OffsetDateTime now) {
        CandidateEntity row = new CandidateEntity();
        row.id = UUID.randomUUID();
        row.sourceId = null;
        row.draftGap = gap;
        row.operationKey = OPERATION_KEY_PREFIX + gap;
        row.revision = revision;
        row.discoveredAt = now;
        return row;
    }

    private void fill(CandidateEntity row, DraftIntake.ValidDraft draft, OffsetDateTime now) {
        ToolManifest manifest = draft.manifest();
        row.status = CandidateStatus.PENDING.name();
        row.toolId = manifest.id();
        row.contentHash = manifest.contentHash();
        row.verb = manifest.verb();
        row.name = manifest.name();
        // undeclared risk is the worst case, as for a source's manifest without one
        row.risk = manifest.risk() == null ? "WRITE_REMOTE" : manifest.risk().name();
        row.manifest = write(manifest);
        row.operation = null;
        row.warnings = write(java.util.List.of("This is " + ReviewService.DRAFT_NOT_APPROVABLE + "."));
        row.diff = null;
        row.updatedAt = now;
    }

    private Uni<Void> notify(CandidateEntity row, DraftIntake.ValidDraft draft, Outcome outcome) {
        String title = "LLM draft for capability gap " + draft.actionVerb()
                + (outcome == Outcome.UPDATED ? " updated" : " awaits review");
        String message = "Find-or-build found no source offering " + draft.actionVerb() + ", so the engineer's LLM"
                + " drafted the missing tool (" + row.toolId + "). It is a specification to look for, with no HTTP"
                + " binding: it cannot be approved. Register a source that offers it, or reject the draft.";
        return notifier.raise(Notification.Kind.NEW_PENDING_TOOLS, Notification.Severity.INFO, title, message,
                row.id.toString());
    }

    private static String summary(CandidateEntity row, DraftIntake.ValidDraft draft, Outcome outcome) {
        return (outcome == Outcome.UPDATED ? "Updated" : "Filed") + " LLM draft " + row.toolId + " (revision "
                + row.revision + ") for capability gap " + draft.normalizedVerb();
    }

    private static Map<String, Object> after(CandidateEntity row) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("status", row.status);
        state.put("draftGap", row.draftGap);
        state.put("toolId", row.toolId);
        state.put("contentHash", row.contentHash);
        return state;
    }

    private static Filed filed(CandidateEntity row, Outcome outcome) {
        return new Filed(row.id, row.draftGap, row.revision, row.status, outcome);
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
