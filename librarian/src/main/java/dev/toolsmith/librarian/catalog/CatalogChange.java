package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.CatalogEntry;

/** What a committed catalog transaction changed, for the local search projection to apply at once. */
public sealed interface CatalogChange {

    String toolId();

    long revision();

    /** A tool was added, got a new version, changed status or access: here is its whole entry. */
    record Upserted(CatalogEntry entry) implements CatalogChange {
        @Override
        public String toolId() {
            return entry.toolId();
        }

        @Override
        public long revision() {
            return entry.revision();
        }
    }

    /** A tool was deleted at {@code revision}. */
    record Removed(String toolId, long revision) implements CatalogChange {
    }
}
