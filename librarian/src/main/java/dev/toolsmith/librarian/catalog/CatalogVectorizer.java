package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Embeds tools for the catalog. Embedding is 10–40 ms of CPU, so reactive callers get it on a worker
 * thread and resume on their own Vert.x context (where their Hibernate Reactive session lives).
 */
@ApplicationScoped
public class CatalogVectorizer {

    private final ToolIndex index;
    private final Vertx vertx;

    public CatalogVectorizer(ToolIndex index, Vertx vertx) {
        this.index = index;
        this.vertx = vertx;
    }

    public String modelId() {
        return index.modelId();
    }

    /** The tool's vectors, computed off the event loop. */
    public Uni<ToolVectors> vectorize(ToolManifest tool) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> index.vectorize(tool)), false);
    }

    /** Blocking variant for callers already on a worker thread. */
    public ToolVectors vectorizeNow(ToolManifest tool) {
        return index.vectorize(tool);
    }

    /** Blocking, on every core: for bulk work such as re-embedding the catalog after a model change. */
    public java.util.List<ToolVectors> vectorizeAllNow(java.util.List<ToolManifest> tools) {
        return index.vectorizeAll(tools);
    }
}
