package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.Risk;
import java.time.OffsetDateTime;
import java.util.List;

/** One row of a catalog page. */
public record ToolSummary(String id, String verb, String name, String description, String namespace, String domain,
        Risk risk, int version, String status, List<String> allowedCallers, OffsetDateTime updatedAt) {
}
