package dev.toolsmith.capabilities.resolution;

import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.TreeSet;

/**
 * Counts verbs nothing could serve and announces each miss on {@code capability-gaps} (key: the
 * normalised verb) for the librarian's find-or-build, in the transaction of the UNRESOLVED result.
 */
@ApplicationScoped
public class CapabilityGaps {

    private final Outbox outbox;

    public CapabilityGaps(Outbox outbox) {
        this.outbox = outbox;
    }

    public record GapCount(String normalizedVerb, String actionVerb, String description, long timesSeen) {
    }

    public Uni<Void> record(PlanStep step, List<SearchHit> candidates) {
        String normalized = VerbNormalizer.normalize(step.actionVerb());
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "INSERT INTO capability_gap (normalized_verb, action_verb, description, times_seen) "
                        + "VALUES (:verb, :action, :description, 1) ON CONFLICT (normalized_verb) DO UPDATE SET "
                        + "times_seen = capability_gap.times_seen + 1, last_seen_at = now(), "
                        + "description = COALESCE(EXCLUDED.description, capability_gap.description) "
                        + "RETURNING times_seen", Long.class)
                .setParameter("verb", normalized)
                .setParameter("action", step.actionVerb())
                .setParameter("description", step.description())
                .getSingleResult())
                .chain(timesSeen -> outbox.append(Topics.CAPABILITY_GAPS, normalized, new CapabilityGap(normalized,
                        step.actionVerb(), step.description(), List.copyOf(new TreeSet<>(step.inputs().keySet())),
                        step.stepId(), step.planId(), timesSeen, candidates)))
                .replaceWithVoid();
    }

    public Uni<List<GapCount>> list(int limit) {
        return Panache.withSession(() -> Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT normalized_verb, action_verb, description, times_seen FROM capability_gap "
                        + "ORDER BY times_seen DESC, last_seen_at DESC LIMIT :limit", Object[].class)
                .setParameter("limit", limit)
                .getResultList()))
                .map(rows -> rows.stream().map(row -> new GapCount((String) row[0], (String) row[1], (String) row[2],
                        ((Number) row[3]).longValue())).toList());
    }
}
