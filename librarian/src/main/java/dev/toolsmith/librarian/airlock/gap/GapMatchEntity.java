package dev.toolsmith.librarian.airlock.gap;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.UUID;

/** A candidate in the queue that could fill a gap, with how well it matched. */
@Entity
@Table(name = "airlock_gap_match")
@IdClass(GapMatchEntity.Key.class)
public class GapMatchEntity extends PanacheEntityBase {

    @Id
    @Column(name = "normalized_verb")
    public String normalizedVerb;
    @Id
    @Column(name = "candidate_id")
    public UUID candidateId;
    @Column(nullable = false)
    public double score;
    @Column(nullable = false)
    public double confidence;
    @Column(name = "matched_at", nullable = false)
    public OffsetDateTime matchedAt;

    /** The composite key. */
    public static class Key implements Serializable {
        public String normalizedVerb;
        public UUID candidateId;

        public Key() {
        }

        public Key(String normalizedVerb, UUID candidateId) {
            this.normalizedVerb = normalizedVerb;
            this.candidateId = candidateId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(normalizedVerb, k.normalizedVerb)
                    && Objects.equals(candidateId, k.candidateId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(normalizedVerb, candidateId);
        }
    }
}
