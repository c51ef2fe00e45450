package dev.toolsmith.librarian.airlock.notification;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** An alert for admins; who has read it is kept per reader ({@link NotificationReads}). */
@Entity
@Table(name = "airlock_notification")
public class NotificationEntity extends PanacheEntityBase {

    @Id
    public UUID id;
    @Column(nullable = false)
    public String kind;
    @Column(nullable = false)
    public String severity;
    @Column(nullable = false)
    public String title;
    public String message;
    @Column(name = "subject_id")
    public String subjectId;
    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}
