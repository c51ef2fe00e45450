package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.ToolManifest;
import java.time.OffsetDateTime;
import java.util.List;

/** A catalogued tool as {@code GET /tools/{id}} shows it: the current manifest, status, access and history. */
public record ToolDetails(String id, int version, String status, List<String> allowedCallers, ToolManifest manifest,
        List<VersionSummary> versions, OffsetDateTime createdAt, OffsetDateTime updatedAt) {

    /** One version of the tool's manifest. */
    public record VersionSummary(int version, String contentHash, OffsetDateTime createdAt) {
    }
}
