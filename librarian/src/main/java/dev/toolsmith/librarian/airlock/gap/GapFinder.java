package dev.toolsmith.librarian.airlock.gap;

import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.librarian.airlock.candidate.PendingIndex;
import dev.toolsmith.librarian.airlock.discovery.DirectoryCatalog;
import dev.toolsmith.librarian.airlock.discovery.DirectorySourceReader;
import dev.toolsmith.librarian.airlock.discovery.DiscoveredTool;
import dev.toolsmith.librarian.airlock.discovery.Discovery;
import dev.toolsmith.librarian.airlock.discovery.OpenApiSourceReader;
import dev.toolsmith.librarian.airlock.discovery.SourceReadException;
import dev.toolsmith.librarian.airlock.source.QueueUpdater;
import dev.toolsmith.librarian.airlock.source.SourceEntity;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.ToolVectors;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Find-or-build's search: the best unapproved candidates for a capability gap, by the same hybrid
 * search as the catalog, over the pending index. When a directory source is enabled and the gap is new
 * (or the queue holds nothing convincing), the directory's best-matching APIs are ingested into the queue
 * first (they still wait for review like any other candidate). Blocking: call from a worker thread.
 */
@ApplicationScoped
public class GapFinder {

    private static final Logger LOG = Logger.getLogger(GapFinder.class);
    /** Below this calibrated confidence a queue match is not convincing enough to skip the directory. */
    static final double CONVINCING = 0.5;

    private final PendingIndex pending;
    private final AirlockConfig config;
    private final DirectoryCatalog directory;
    private final DirectorySourceReader directoryReader;
    private final OpenApiIngestor ingestor;
    private final QueueUpdater queue;

    public GapFinder(PendingIndex pending, AirlockConfig config, DirectoryCatalog directory,
            DirectorySourceReader directoryReader, OpenApiIngestor ingestor, QueueUpdater queue) {
        this.pending = pending;
        this.config = config;
        this.directory = directory;
        this.directoryReader = directoryReader;
        this.ingestor = ingestor;
        this.queue = queue;
    }

    public List<SearchHit> find(CapabilityGap gap) {
        pending.sync();
        List<SearchHit> hits = search(gap);
        boolean convincing = !hits.isEmpty() && hits.get(0).confidence() >= CONVINCING;
        LOG.infof("gap %s: %d queued candidates match%s", gap.normalizedVerb(), hits.size(), hits.isEmpty() ? ""
                : ", best " + hits.get(0).name() + " at confidence " + String.format("%.2f", hits.get(0).confidence()));
        // The calibrated confidence is fitted on the catalog; over a small queue an unrelated candidate can
        // look confident, so a gap seen for the first time always gets a look at the directory.
        boolean firstTime = config.directoryEnabled() && ReactiveBridge.await(() -> Panache.withSession(
                () -> GapEntity.<GapEntity>findById(gap.normalizedVerb()))) == null;
        if (config.directoryEnabled() && (firstTime || !convincing) && ingestFromDirectory(gap) > 0) {
            pending.sync();
            hits = search(gap);
        }
        return hits;
    }

    private List<SearchHit> search(CapabilityGap gap) {
        ToolQuery query = new ToolQuery(gap.description(), gap.actionVerb(), gap.inputNames(), null, null,
                config.gapMatches(), RetrievalMode.HYBRID);
        return pending.search(query).hits().stream().filter(h -> h.score() > 0).toList();
    }

    private int ingestFromDirectory(CapabilityGap gap) {
        List<SourceEntity> sources = ReactiveBridge.await(() -> Panache.withSession(() -> SourceEntity
                .<SourceEntity>list("type", "directory")));
        for (SourceEntity source : sources) {
            if (!directory.isLoaded(source.id)) {
                try {
                    directoryReader.load(source.snapshot());
                } catch (SourceReadException e) {
                    LOG.warnf("directory source %s cannot be loaded for gap %s: %s", source.name,
                            gap.normalizedVerb(), e.getMessage());
                }
            }
        }
        Map<java.util.UUID, SourceEntity> byId = new HashMap<>();
        sources.forEach(s -> byId.put(s.id, s));
        String text = String.join(" ", gap.actionVerb(), gap.description() == null ? "" : gap.description(),
                String.join(" ", gap.inputNames()));
        int added = 0;
        for (DirectoryCatalog.Match match : directory.best(text, config.directoryApisPerGap())) {
            SourceEntity source = byId.get(match.sourceId());
            if (source == null) {
                continue;
            }
            try {
                IngestedDocument document = ingestor.ingest(URI.create(match.api().specUrl()), ToolSourceType.DIRECTORY);
                Discovery found = OpenApiSourceReader.toDiscovery(document, match.api().key() + " ");
                Discovery partial = new Discovery(found.tools(), found.skipped(), false, found.tools().size());
                Map<String, ToolVectors> vectors = new HashMap<>();
                for (DiscoveredTool tool : partial.tools()) {
                    vectors.put(tool.operationKey(), pending.vectorize(tool.manifest()));
                }
                QueueUpdater.Applied applied = ReactiveBridge.await(() -> queue.apply(source.snapshot(), partial,
                        vectors, pending.modelId(), false));
                added += applied.added() + applied.changed();
            } catch (IngestionException | IllegalArgumentException e) {
                LOG.warnf("directory API %s (%s) could not be ingested for gap %s: %s", match.api().key(),
                        match.api().specUrl(), gap.normalizedVerb(), e.getMessage());
            }
        }
        return added;
    }
}
