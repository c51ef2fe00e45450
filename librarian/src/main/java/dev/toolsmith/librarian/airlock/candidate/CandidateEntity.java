package dev.toolsmith.librarian.airlock.candidate;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * One revision of a candidate tool offered by a source, or of an LLM draft for a capability gap (no
 * source, {@link #draftGap} set; see V2_3): what the review queue holds.
 */
@Entity
@Table(name = "airlock_candidate")
public class CandidateEntity extends PanacheEntityBase {

    @Id
    public UUID id;
    /** Null for a find-or-build draft. */
    @Column(name = "source_id")
    public UUID sourceId;
    /** The normalised verb of the gap an LLM draft was written for; null for a source's candidate. */
    @Column(name = "draft_gap")
    public String draftGap;
    @Column(name = "operation_key", nullable = false)
    public String operationKey;
    @Column(nullable = false)
    public int revision;
    @Column(name = "tool_id", nullable = false)
    public String toolId;
    /** The version its approval is built as; null until approved (see V2_2). */
    @Column(name = "build_version")
    public Integer buildVersion;
    @Column(nullable = false)
    public String status;
    @Column(name = "content_hash", nullable = false)
    public String contentHash;
    @Column(nullable = false)
    public String verb;
    @Column(nullable = false)
    public String name;
    @Column(nullable = false)
    public String risk;
    @Column(name = "risk_override")
    public String riskOverride;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public String manifest;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb")
    public String operation;
    /** A JSON array, as text. */
    public String warnings;
    /** A JSON array of {path, before, after}, as text. */
    public String diff;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb")
    public String policy;
    @Column(name = "decided_by")
    public String decidedBy;
    @Column(name = "decided_at")
    public OffsetDateTime decidedAt;
    @Column(name = "reject_reason")
    public String rejectReason;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "build_report", columnDefinition = "jsonb")
    public String buildReport;
    @Column(name = "build_failure")
    public String buildFailure;
    @Column(name = "vector_model")
    public String vectorModel;
    public byte[] vectors;
    @Column(name = "discovered_at", nullable = false)
    public OffsetDateTime discoveredAt;
    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** An LLM's draft from find-or-build: a specification without an HTTP binding, never approvable. */
    public boolean isDraft() {
        return draftGap != null;
    }

    /** The risk a reviewer decided, else the one derived from the definition. */
    public String effectiveRisk() {
        return riskOverride != null ? riskOverride : risk;
    }
}
