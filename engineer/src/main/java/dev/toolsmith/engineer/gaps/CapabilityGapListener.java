package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Find-or-build, the engineer's part: every capability gap becomes (or updates) a build request per
 * normalised verb, so admins see which capabilities planners miss and how often. The librarian looks
 * for unapproved candidates for the same gaps; nothing here is ever approved or built automatically.
 * With an LLM configured, the request is also marked for a draft manifest ({@link DraftRunner}); a
 * draft or delivery that failed is tried again on the gap's next event.
 */
@ApplicationScoped
public class CapabilityGapListener {

    private final IdempotentConsumer consumer;
    private final ObjectMapper mapper;
    private final ManifestDrafter drafter;

    public CapabilityGapListener(IdempotentConsumer consumer, ContractCodec codec, ManifestDrafter drafter) {
        this.consumer = consumer;
        this.mapper = codec.mapper();
        this.drafter = drafter;
    }

    @Incoming("capability-gaps-in")
    public Uni<Void> onGap(byte[] raw) {
        return consumer.apply("engineer-capability-gaps", raw, CapabilityGap.class, (envelope, gap) -> record(gap));
    }

    Uni<Void> record(CapabilityGap gap) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return BuildRequest.<BuildRequest>find("normalizedVerb", gap.normalizedVerb()).firstResult().chain(existing -> {
            BuildRequest request = existing != null ? existing : new BuildRequest();
            if (existing == null) {
                request.id = UUID.randomUUID();
                request.normalizedVerb = gap.normalizedVerb();
                request.status = BuildRequest.OPEN;
                request.createdAt = now;
                request.timesSeen = 0;
            }
            request.actionVerb = gap.actionVerb();
            if (gap.description() != null && !gap.description().isBlank()) {
                request.description = gap.description();
            }
            request.inputNames = json(gap.inputNames());
            // the gap carries the planner-side count when it has one; otherwise count deliveries
            request.timesSeen = Math.max(request.timesSeen + 1, gap.timesSeen());
            request.candidates = gap.candidates().size();
            request.updatedAt = now;
            // the draft itself is written later by DraftRunner, outside this transaction (the LLM is slow)
            boolean undelivered = request.draftManifest != null && request.draftDeliveredAt == null;
            request.draftWanted = request.draftWanted || undelivered
                    || (request.draftManifest == null && drafter.available());
            return request.persist().replaceWithVoid();
        });
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
