package dev.toolsmith.librarian.catalog;

import java.util.Optional;

/** Narrows a catalog listing; an empty part matches every tool. */
public record CatalogFilter(Optional<String> namespace, Optional<String> domain, Optional<ToolStatus> status) {
}
