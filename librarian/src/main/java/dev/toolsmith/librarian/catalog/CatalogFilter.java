package dev.toolsmith.librarian.catalog;

import java.util.Optional;

/**
 * Narrows a catalog listing; an empty part matches every tool. {@code visibleTo} keeps only the tools that
 * caller may use (allowed callers empty or naming it).
 */
public record CatalogFilter(Optional<String> namespace, Optional<String> domain, Optional<ToolStatus> status,
        Optional<String> visibleTo) {

    public CatalogFilter(Optional<String> namespace, Optional<String> domain, Optional<ToolStatus> status) {
        this(namespace, domain, status, Optional.empty());
    }
}
