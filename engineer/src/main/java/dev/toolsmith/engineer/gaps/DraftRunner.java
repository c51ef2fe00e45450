package dev.toolsmith.engineer.gaps;

import static dev.toolsmith.eventing.ReactiveBridge.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.llm.RejectedAnswerException;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Drafts and delivers what gap events asked for, on a worker thread so the LLM and the librarian are
 * never waited for inside a transaction or on the Kafka consumer. A request is taken by a conditional
 * update (two replicas never draft it twice); its draft (or why there is none) is stored, then sent to
 * the librarian's review queue. Whatever fails waits for the gap's next event.
 */
@ApplicationScoped
public class DraftRunner {

    private static final Logger LOG = Logger.getLogger(DraftRunner.class);
    private static final int BATCH = 20;

    private final ManifestDrafter drafter;
    private final LibrarianDrafts librarian;
    private final ObjectMapper mapper;

    public DraftRunner(ManifestDrafter drafter, LibrarianDrafts librarian, ContractCodec codec) {
        this.drafter = drafter;
        this.librarian = librarian;
        this.mapper = codec.mapper();
    }

    @Scheduled(every = "${toolsmith.engineer.scan-interval:1s}", delayed = "${toolsmith.engineer.scan-delay:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public void scan() {
        try {
            List<UUID> wanted = await(() -> Panache.withSession(() -> BuildRequest.<BuildRequest>find(
                    "draftWanted = true order by updatedAt").page(0, BATCH).list()))
                    .stream().map(r -> r.id).toList();
            wanted.forEach(this::process);
        } catch (RuntimeException e) {
            LOG.warnf(e, "draft scan failed; it runs again on the next tick");
        }
    }

    void process(UUID id) {
        Integer claimed = await(() -> Panache.withTransaction(() -> BuildRequest.update(
                "draftWanted = false where id = ?1 and draftWanted = true", id)));
        if (claimed != 1) {
            return;
        }
        BuildRequest request = await(() -> Panache.withSession(() -> BuildRequest.<BuildRequest>findById(id)));
        List<String> inputs = inputNames(request);
        ToolManifest draft = readDraft(request);
        boolean drafted = false;
        if (draft == null && drafter.available()) {
            String error = null;
            try {
                draft = drafter.draft(request.actionVerb == null ? request.normalizedVerb : request.actionVerb,
                        request.normalizedVerb, request.description, inputs);
            } catch (RejectedAnswerException | RuntimeException e) { // an unreachable LLM is a RuntimeException too
                error = ManifestDrafter.reason(e);
                LOG.infof("no draft for gap %s: %s", request.normalizedVerb, error);
            }
            drafted = draft != null;
            String json = draft == null ? null : write(draft);
            String why = error;
            await(() -> Panache.withTransaction(() -> BuildRequest.update(
                    "draftManifest = ?1, draftError = ?2, draftDeliveredAt = null where id = ?3", json, why, id)));
        }
        if (draft == null || (!drafted && request.draftDeliveredAt != null)) {
            return;
        }
        String failure = librarian.deliver(request, draft, inputs);
        if (failure != null) {
            LOG.warnf("draft for gap %s not delivered (retried on the gap's next event): %s", request.normalizedVerb,
                    failure);
        }
        OffsetDateTime deliveredAt = failure == null ? OffsetDateTime.now(ZoneOffset.UTC) : null;
        await(() -> Panache.withTransaction(() -> BuildRequest.update(
                "draftDeliveredAt = ?1, draftDeliveryError = ?2 where id = ?3", deliveredAt, failure, id)));
    }

    private ToolManifest readDraft(BuildRequest request) {
        try {
            return request.draftManifest == null ? null : mapper.readValue(request.draftManifest, ToolManifest.class);
        } catch (Exception e) {
            return null; // an unreadable draft is drafted again
        }
    }

    private List<String> inputNames(BuildRequest request) {
        try {
            return request.inputNames == null ? List.of()
                    : mapper.readValue(request.inputNames, new TypeReference<List<String>>() { });
        } catch (Exception e) {
            return List.of();
        }
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
