package dev.toolsmith.librarian.airlock.source;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A source and the state of its scans, as the API shows it; {@code skipped} lists what its last
 * successful scan could not import ("GET /pets: depends on an external $ref that cannot be resolved: …").
 */
public record SourceView(UUID id, String name, String type, String url, String branch, String path,
        int intervalSeconds, boolean suspendOnChange, String status, OffsetDateTime lastScanAt,
        OffsetDateTime nextScanAt, String lastError, Counts counts, String createdBy, OffsetDateTime createdAt,
        OffsetDateTime updatedAt, List<String> skipped) {

    /** Skipped operations shown at most (the count is always complete). */
    static final int MAX_SKIPPED_LISTED = 200;

    /** What the last successful scan found. */
    public record Counts(int found, int added, int changed, int skipped) {
    }

    static SourceView of(SourceEntity s) {
        return new SourceView(s.id, s.name, s.type, s.url, s.branch, s.path, s.intervalSeconds, s.suspendOnChange,
                s.status, s.lastScanAt, s.nextScanAt, s.lastError,
                new Counts(s.foundCount, s.newCount, s.changedCount, s.skippedCount), s.createdBy, s.createdAt,
                s.updatedAt, s.skippedOperations == null || s.skippedOperations.isEmpty() ? List.of()
                        : List.of(s.skippedOperations.split("\n")));
    }

    /** The stored form of a scan's skipped operations: the first {@link #MAX_SKIPPED_LISTED}, one per line. */
    static String storedSkipped(List<String> skipped) {
        return skipped.isEmpty() ? null : String.join("\n", skipped.stream().limit(MAX_SKIPPED_LISTED)
                .map(line -> line.replace('\n', ' ').replace('\r', ' ')).toList());
    }

    /** The audited state: what an admin can change. */
    java.util.Map<String, Object> auditState() {
        java.util.Map<String, Object> state = new java.util.LinkedHashMap<>();
        state.put("name", name);
        state.put("type", type);
        state.put("url", url);
        if (branch != null) {
            state.put("branch", branch);
        }
        if (path != null) {
            state.put("path", path);
        }
        state.put("intervalSeconds", intervalSeconds);
        state.put("suspendOnChange", suspendOnChange);
        return state;
    }
}
