package dev.toolsmith.librarian.search;

import dev.toolsmith.librarian.catalog.CatalogChange;
import dev.toolsmith.librarian.catalog.LocalCatalogIndex;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Applies this replica's own committed catalog changes to its index at once (read-your-writes), on a
 * worker thread since an index update refreshes Lucene. The same change arrives again from
 * {@code tool-catalog} and is then skipped by its revision.
 */
@ApplicationScoped
public class LocalIndexUpdates implements LocalCatalogIndex {

    private final CatalogProjection projection;
    private final Vertx vertx;

    public LocalIndexUpdates(CatalogProjection projection, Vertx vertx) {
        this.projection = projection;
        this.vertx = vertx;
    }

    @Override
    public Uni<Void> apply(Optional<CatalogChange> change) {
        if (change.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            projection.apply(change.get());
            return (Void) null;
        }), false);
    }
}
