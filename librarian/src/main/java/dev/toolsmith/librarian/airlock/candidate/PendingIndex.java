package dev.toolsmith.librarian.airlock.candidate;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.ToolVectors;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.inject.Singleton;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * A search index over the candidates nobody has approved yet (pending or back from a failed build),
 * separate from the catalog's, on the same in-process model: find-or-build searches it for gaps. It is a
 * projection of the candidate table, brought up to date by {@link #sync()} (rows changed since the last
 * sync, with an overlap so transactions that commit late are not missed), so every replica sees the
 * candidates any replica scanned. Entries are keyed by candidate id. LLM drafts stay out: a draft is
 * written for its gap and would always look like a confident match for it, yet can fill nothing (and a
 * confident match would keep find-or-build from looking in the directory). Call from worker threads.
 */
@Singleton
public class PendingIndex {

    private static final Logger LOG = Logger.getLogger(PendingIndex.class);
    private static final Set<String> SEARCHABLE = Set.of(CandidateStatus.PENDING.name(),
            CandidateStatus.BUILD_FAILED.name());
    private static final long OVERLAP_SECONDS = 60;

    private final ToolIndex index;
    private final ContractCodec codec;
    private OffsetDateTime syncedUpTo = OffsetDateTime.of(1970, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

    public PendingIndex(ToolIndex catalogIndex, ContractCodec codec) {
        this.index = new ToolIndex(catalogIndex.embedder());
        this.codec = codec;
    }

    public ToolVectors vectorize(ToolManifest manifest) {
        return index.vectorize(manifest);
    }

    public String modelId() {
        return index.modelId();
    }

    public int size() {
        return index.size();
    }

    public SearchResult search(ToolQuery query) {
        return index.search(query);
    }

    /** Applies candidate rows changed since the last sync. Blocking: call from a worker thread. */
    public synchronized void sync() {
        OffsetDateTime since = syncedUpTo.minusSeconds(OVERLAP_SECONDS);
        OffsetDateTime startedAt = OffsetDateTime.now(ZoneOffset.UTC);
        List<CandidateEntity> changed = ReactiveBridge.await(() -> Panache.withSession(() -> CandidateEntity
                .<CandidateEntity>list("updatedAt > ?1", since)));
        List<ToolIndex.IndexedTool> upserts = new ArrayList<>();
        for (CandidateEntity row : changed) {
            String key = row.id.toString();
            if (!SEARCHABLE.contains(row.status) || row.isDraft()) {
                index.remove(key);
                continue;
            }
            try {
                ToolManifest manifest = keyed(codec.mapper().readValue(row.manifest, ToolManifest.class), key);
                ToolVectors vectors = row.vectors != null && modelId().equals(row.vectorModel)
                        ? ToolVectors.fromBytes(row.vectors) : index.vectorize(manifest);
                upserts.add(new ToolIndex.IndexedTool(manifest, vectors, null));
            } catch (Exception e) {
                LOG.warnf("candidate %s left out of the pending index: %s", key, e.getMessage());
            }
        }
        if (!upserts.isEmpty()) {
            index.upsertAll(upserts);
        }
        syncedUpTo = startedAt;
    }

    /** The manifest under the candidate's id, so hits name the candidate. */
    static ToolManifest keyed(ToolManifest m, String candidateId) {
        return new ToolManifest(candidateId, m.verb(), m.name(), m.description(), m.source(), m.namespace(), m.domain(),
                m.tags(), m.inputSchema(), m.outputSchema(), m.risk(), m.binding(), m.healthProbe(), m.version(),
                m.contentHash());
    }
}
