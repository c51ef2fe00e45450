package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * One tool as the librarian's catalog holds it, on the compacted {@code tool-catalog} topic keyed by tool
 * id (a tombstone, i.e. a record with no value, deletes the tool). Every librarian replica rebuilds its
 * search index from these entries.
 *
 * @param revision       orders catalog changes: a replica ignores an entry whose revision is not above the
 *                       one it already applied for that tool (replays and late deliveries change nothing)
 * @param version        the tool's catalog version; a new content hash makes a new version
 * @param status         {@code active} or {@code disabled} (disabled tools never appear in search)
 * @param allowedCallers who may see and call the tool; empty means everyone
 * @param vectorModel    the embedding model {@code vectors} come from (null when not sent)
 * @param vectors        the tool's dense vectors, base64 of the search library's binary form, so a replica
 *                       does not embed the tool again; optional (a replica embeds it when absent or when
 *                       it runs another model)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CatalogEntry(
        String toolId,
        long revision,
        int version,
        String status,
        ToolManifest manifest,
        List<String> allowedCallers,
        String vectorModel,
        String vectors) {

    public static final String ACTIVE = "active";
    public static final String DISABLED = "disabled";

    public CatalogEntry {
        allowedCallers = allowedCallers == null ? List.of() : List.copyOf(allowedCallers);
    }

    public boolean disabled() {
        return DISABLED.equals(status);
    }
}
