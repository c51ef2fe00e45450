package dev.toolsmith.librarian.airlock.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Writes the airlock's audit trail. Call it inside the transaction of the change it records, so an
 * entry exists exactly when the change does. States passed in must already have secrets reduced to
 * their names.
 */
@ApplicationScoped
public class AuditLog {

    /** What happened. */
    public enum Action {
        SOURCE_CREATED, SOURCE_UPDATED, SOURCE_DELETED, APPROVED, REJECTED, POLICY_CHANGED, SUSPENDED,
        /** A find-or-build draft entered the review queue (or an undecided one was replaced). */
        DRAFT_FILED,
        /** An approval replaced an active tool of the same id from another source (confirmed by the admin). */
        REPLACED,
        /** A tool version entered the catalog (a verified build, or an internal plugin's announcement). */
        CATALOGED,
        /** A catalogued tool's allowed callers changed without a new version. */
        CATALOG_ACCESS_CHANGED,
        /** A catalogued tool was hidden from or shown again in search ({@code plugin-status}). */
        CATALOG_STATUS_CHANGED,
        /** An admin took a tool out of the catalog, with a reason. */
        RETIRED,
        /** A build on {@code plugin-built} without the valid seal of its approval: not catalogued. */
        BUILD_REFUSED,
        /** An admin approved every tool a review-queue filter matched (each one is also audited as APPROVED). */
        BULK_APPROVED,
        /** An admin rejected every tool a review-queue filter matched (each one is also audited as REJECTED). */
        BULK_REJECTED,
        /** The airlock UI locked an account or a client address out after repeated failed sign-ins. */
        SIGN_IN_LOCKED,
        /** An admin lifted a sign-in lockout in the airlock UI. */
        SIGN_IN_UNLOCKED,
        /** An admin changed a plugin's own health thresholds (in the capabilities manager, on notifications). */
        HEALTH_THRESHOLDS_CHANGED
    }

    private final ObjectMapper mapper;

    public AuditLog(ContractCodec codec) {
        this.mapper = codec.mapper();
    }

    public Uni<Void> record(String actor, Action action, String subjectType, String subjectId, String summary,
            Object before, Object after) {
        AuditEntity entry = new AuditEntity();
        entry.id = UUID.randomUUID();
        entry.at = OffsetDateTime.now(ZoneOffset.UTC);
        entry.actor = actor;
        entry.action = action.name();
        entry.subjectType = subjectType;
        entry.subjectId = subjectId;
        entry.summary = summary;
        entry.beforeState = json(before);
        entry.afterState = json(after);
        return entry.persist().replaceWithVoid();
    }

    private String json(Object state) {
        if (state == null) {
            return null;
        }
        JsonNode tree = state instanceof JsonNode node ? node : mapper.valueToTree(state);
        return tree.toString();
    }
}
