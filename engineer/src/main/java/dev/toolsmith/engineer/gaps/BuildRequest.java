package dev.toolsmith.engineer.gaps;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A capability nobody serves yet, recorded for admins to build or source (table build_request, V1_2). */
@Entity
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

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
