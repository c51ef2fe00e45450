package dev.toolsmith.librarian.catalog;

import java.util.Optional;

/**
 * The answer to indexing a manifest: the tool's version and hash, whether a new version was made, and the
 * change to apply to the search projection (empty when nothing changed).
 */
public record IndexOutcome(String toolId, int version, String contentHash, String status, boolean newVersion,
        Optional<CatalogChange> change) {
}
