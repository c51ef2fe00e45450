package dev.toolsmith.engineer.jobs;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A build of one approved tool version (table build_job, V1_1). JSON columns hold contract records. */
@Entity
@Table(name = "build_job")
public class BuildJob extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(name = "tool_id", nullable = false)
    public String toolId;

    @Column(nullable = false)
    public int version;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public BuildState state;

    @Column(nullable = false)
    public String approval;

    public String plugin;

    public String suite;

    public String report;

    public String notes;

    @Column(name = "failure_reason")
    public String failureReason;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
