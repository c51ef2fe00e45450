package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.search.ToolVectors;

/** A tool as the database holds it at start-up: its entry (without the encoded vectors) and its vectors. */
public record StoredTool(CatalogEntry entry, ToolVectors vectors) {
}
