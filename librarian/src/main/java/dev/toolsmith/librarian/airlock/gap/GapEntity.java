package dev.toolsmith.librarian.airlock.gap;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** A verb nothing could serve, as often as planners asked for it. */
@Entity
@Table(name = "airlock_gap")
public class GapEntity extends PanacheEntityBase {

    @Id
    @Column(name = "normalized_verb")
    public String normalizedVerb;
    @Column(name = "action_verb", nullable = false)
    public String actionVerb;
    public String description;
    /** A JSON array, as text. */
    @Column(name = "input_names")
    public String inputNames;
    @Column(name = "times_seen", nullable = false)
    public long timesSeen;
    @Column(name = "first_seen_at", nullable = false)
    public OffsetDateTime firstSeenAt;
    @Column(name = "last_seen_at", nullable = false)
    public OffsetDateTime lastSeenAt;
}
