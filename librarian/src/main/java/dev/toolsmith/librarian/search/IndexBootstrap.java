package dev.toolsmith.librarian.search;

import dev.toolsmith.librarian.catalog.CatalogSnapshot;
import dev.toolsmith.librarian.catalog.StoredTool;
import dev.toolsmith.search.ToolIndex;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Rebuilds the search index from the catalog before the replica takes traffic, with the stored vectors
 * (no embedding unless the model changed). Changes committed afterwards arrive through the
 * {@code tool-catalog} topic, which {@link CatalogTopicListener} reads from its start.
 */
@ApplicationScoped
public class IndexBootstrap {

    private static final Logger LOG = Logger.getLogger(IndexBootstrap.class);

    private final CatalogSnapshot snapshot;
    private final CatalogProjection projection;
    private final ToolIndex index;

    public IndexBootstrap(CatalogSnapshot snapshot, CatalogProjection projection, ToolIndex index) {
        this.snapshot = snapshot;
        this.projection = projection;
        this.index = index;
    }

    void onStart(@Observes StartupEvent event) {
        long start = System.nanoTime();
        List<StoredTool> tools = snapshot.load();
        projection.load(tools);
        // the settings that change which answers are confident, so an operator can tell from the log which are on
        LOG.infof("search index rebuilt from the catalog: %d tools in %d ms (step confidence %s, cascade %s)",
                tools.size(), (System.nanoTime() - start) / 1_000_000, index.stepConfidence().value(),
                index.cascade() ? "on" : "off");
    }
}
