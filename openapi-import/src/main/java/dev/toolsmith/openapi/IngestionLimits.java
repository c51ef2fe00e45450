package dev.toolsmith.openapi;

import dev.toolsmith.openapi.fetch.FetchLimits;

/**
 * Bounds on one document's ingestion, so a hostile or merely huge document costs bounded time and
 * memory. {@code fetch} applies to the document and to every external {@code $ref} target.
 *
 * @param fetch size, time and redirect limits of each fetch
 * @param maxOperations a document with more operations is refused as a whole
 * @param maxYamlAliases aliases to collections a YAML document may use (alias bombs use thousands)
 * @param maxNestingDepth nesting of the document's own JSON/YAML structure
 * @param maxExternalDocuments distinct external documents {@code $ref}s may pull in
 * @param maxRefDepth nested {@code $ref}s expanded inside one schema before the rest is left open
 * @param maxSchemaNodes JSON nodes one produced schema may have; past it references are left open
 */
public record IngestionLimits(
        FetchLimits fetch,
        int maxOperations,
        int maxYamlAliases,
        int maxNestingDepth,
        int maxExternalDocuments,
        int maxRefDepth,
        int maxSchemaNodes) {

    public static IngestionLimits defaults() {
        return new IngestionLimits(FetchLimits.defaults(), 2_000, 100, 200, 20, 24, 5_000);
    }

    public IngestionLimits withFetch(FetchLimits newFetch) {
        return new IngestionLimits(newFetch, maxOperations, maxYamlAliases, maxNestingDepth, maxExternalDocuments,
                maxRefDepth, maxSchemaNodes);
    }

    public IngestionLimits withMaxOperations(int operations) {
        return new IngestionLimits(fetch, operations, maxYamlAliases, maxNestingDepth, maxExternalDocuments,
                maxRefDepth, maxSchemaNodes);
    }
}
