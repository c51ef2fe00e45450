package dev.toolsmith.librarian.catalog;

import java.util.List;

/** A page of the catalog, ordered by tool id; {@code page} counts from 0. */
public record CatalogPage(List<ToolSummary> items, int page, int size, long total) {
}
