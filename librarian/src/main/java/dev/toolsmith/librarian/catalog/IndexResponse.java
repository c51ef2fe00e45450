package dev.toolsmith.librarian.catalog;

/** What {@code POST /tools/index} did: {@code newVersion} is false when the content hash was unchanged. */
public record IndexResponse(String toolId, int version, String contentHash, String status, boolean newVersion) {

    static IndexResponse of(IndexOutcome outcome) {
        return new IndexResponse(outcome.toolId(), outcome.version(), outcome.contentHash(), outcome.status(),
                outcome.newVersion());
    }
}
