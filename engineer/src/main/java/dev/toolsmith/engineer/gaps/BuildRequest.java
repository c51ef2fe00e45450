package dev.toolsmith.engineer.gaps;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.hibernate.annotations.DynamicUpdate;

/**
 * A capability nobody serves yet, recorded for admins to build or source (table build_request, V1_2; the
 * draft columns V1_3). Updates write only the columns that changed: the gap listener and the
 * {@link DraftRunner} change the same row from different transactions, and a full-row update from the
 * listener would put back a draft column the runner had just written.
 */
@Entity
@DynamicUpdate
@Table(name = "build_request")
public class BuildRequest extends PanacheEntityBase {

    /** OPEN until an admin acts on it outside the engineer. */
    public static final String OPEN = "OPEN";

    @Id
    public UUID id;

    @Column(name = "normalized_verb", nullable = false, unique = true)
    public String normalizedVerb;

    @Column(name = "action_verb")
    public String actionVerb;

    public String description;

    @Column(name = "input_names")
    public String inputNames;

    @Column(name = "times_seen", nullable = false)
    public long timesSeen;

    @Column(nullable = false)
    public int candidates;

    @Column(nullable = false)
    public String status;

    /** The LLM's draft manifest (JSON), a specification for an admin; see V1_3. */
    @Column(name = "draft_manifest")
    public String draftManifest;

    /** Why the last draft attempt produced none. */
    @Column(name = "draft_error")
    public String draftError;

    /** A gap event asked for a draft or its delivery that has not been tried yet. */
    @Column(name = "draft_wanted", nullable = false)
    public boolean draftWanted;

    @Column(name = "draft_delivered_at")
    public OffsetDateTime draftDeliveredAt;

    @Column(name = "draft_delivery_error")
    public String draftDeliveryError;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
