package dev.toolsmith.librarian.airlock.audit;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** One decision or change in the airlock: who, when, what, before and after (secrets as names only). */
@Entity
@Table(name = "airlock_audit")
public class AuditEntity extends PanacheEntityBase {

    @Id
    public UUID id;
    @Column(nullable = false)
    public OffsetDateTime at;
    @Column(nullable = false)
    public String actor;
    @Column(nullable = false)
    public String action;
    @Column(name = "subject_type", nullable = false)
    public String subjectType;
    @Column(name = "subject_id", nullable = false)
    public String subjectId;
    @Column(nullable = false)
    public String summary;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "before_state", columnDefinition = "jsonb")
    public String beforeState;
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "after_state", columnDefinition = "jsonb")
    public String afterState;
}
