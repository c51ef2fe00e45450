package dev.toolsmith.librarian.airlock.gap;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.notification.Notifier;
import dev.toolsmith.librarian.airlock.source.QueueUpdater;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Records a gap (its frequency) and tags the candidates found for it, in the consumer's transaction;
 * admins are notified when a gap is new or new candidates match it.
 */
@ApplicationScoped
public class GapRecorder {

    private final ObjectMapper mapper;
    private final Notifier notifier;

    public GapRecorder(ContractCodec codec, Notifier notifier) {
        this.mapper = codec.mapper();
        this.notifier = notifier;
    }

    public Uni<Void> record(CapabilityGap gap, List<SearchHit> hits) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        String verb = gap.normalizedVerb();
        List<UUID> ids = hits.stream().map(h -> UUID.fromString(h.toolId())).toList();
        return GapEntity.<GapEntity>findById(verb).chain(existing -> {
            boolean isNew = existing == null;
            GapEntity row = isNew ? new GapEntity() : existing;
            if (isNew) {
                row.normalizedVerb = verb;
                row.firstSeenAt = now;
                row.timesSeen = 0;
            }
            row.actionVerb = gap.actionVerb();
            row.description = gap.description();
            row.inputNames = mapper.valueToTree(gap.inputNames()).toString();
            row.timesSeen = Math.max(row.timesSeen + 1, gap.timesSeen());
            row.lastSeenAt = now;
            Uni<Void> saved = isNew ? row.persist().replaceWithVoid() : Uni.createFrom().voidItem();
            return saved.chain(() -> existingCandidates(ids)).chain(live -> GapMatchEntity
                    .<GapMatchEntity>list("normalizedVerb", verb).chain(previous -> {
                        Set<UUID> known = previous.stream().map(m -> m.candidateId).collect(Collectors.toSet());
                        List<Uni<?>> work = new ArrayList<>();
                        int fresh = 0;
                        for (SearchHit hit : hits) {
                            UUID id = UUID.fromString(hit.toolId());
                            if (!live.contains(id)) {
                                continue;
                            }
                            GapMatchEntity match = previous.stream().filter(m -> m.candidateId.equals(id)).findFirst()
                                    .orElse(null);
                            if (match == null) {
                                match = new GapMatchEntity();
                                match.normalizedVerb = verb;
                                match.candidateId = id;
                                fresh++;
                                work.add(match.persist());
                            }
                            match.score = hit.score();
                            match.confidence = hit.confidence();
                            match.matchedAt = now;
                        }
                        if (isNew || fresh > 0) {
                            String title = "Capability gap " + gap.actionVerb() + " (seen " + row.timesSeen + " times)";
                            String message = live.isEmpty() && known.isEmpty()
                                    ? "No candidate in the review queue matches it: register a source that offers it."
                                    : fresh + " new candidate(s) in the review queue could fill it (filter the queue by gap "
                                            + verb + ").";
                            work.add(notifier.raise(Notification.Kind.CAPABILITY_GAP, Notification.Severity.INFO, title,
                                    message, verb));
                        }
                        return QueueUpdater.sequence(work);
                    }));
        });
    }

    private static Uni<Set<UUID>> existingCandidates(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return CandidateEntity.<CandidateEntity>list("id in ?1", ids)
                .map(rows -> rows.stream().map(r -> r.id).collect(Collectors.toSet()));
    }
}
