package dev.toolsmith.eventing;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A stand-in aggregate whose state changes announce themselves through the outbox. */
@Entity
@Table(name = "widget")
public class Widget extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String status;

    @Column(name = "applied_count", nullable = false)
    public int appliedCount;
}
