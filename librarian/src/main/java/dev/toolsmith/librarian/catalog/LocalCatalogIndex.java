package dev.toolsmith.librarian.catalog;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * This replica's search index, as the catalog sees it: a committed change is applied to it before the
 * request that made the change is answered (read-your-writes). The search package implements it, so the
 * catalog never depends on search; the same change reaches every replica again through {@code tool-catalog}.
 */
public interface LocalCatalogIndex {

    /** Applies {@code change} (nothing when empty); completes once the index shows it. */
    Uni<Void> apply(Optional<CatalogChange> change);
}
