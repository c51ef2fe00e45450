package dev.toolsmith.eventing;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A row of the transactional outbox: one event waiting to be (or already) published to Kafka. The table's
 * {@code tx_id} and {@code position}, which order publishing, are filled in by PostgreSQL.
 */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(nullable = false)
    public String topic;

    @Column(name = "message_key")
    public String messageKey;

    @Column(name = "event_type", nullable = false)
    public String eventType;

    @Column(nullable = false, columnDefinition = "text")
    public String envelope;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
}
