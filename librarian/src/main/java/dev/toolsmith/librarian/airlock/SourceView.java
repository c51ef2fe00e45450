package dev.toolsmith.librarian.airlock;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A source and the state of its scans, as the API shows it. */
public record SourceView(UUID id, String name, String type, String url, String branch, String path,
        int intervalSeconds, boolean suspendOnChange, String status, OffsetDateTime lastScanAt,
        OffsetDateTime nextScanAt, String lastError, Counts counts, String createdBy, OffsetDateTime createdAt,
        OffsetDateTime updatedAt) {

    /** What the last successful scan found. */
    public record Counts(int found, int added, int changed, int skipped) {
    }

    static SourceView of(SourceEntity s) {
        return new SourceView(s.id, s.name, s.type, s.url, s.branch, s.path, s.intervalSeconds, s.suspendOnChange,
                s.status, s.lastScanAt, s.nextScanAt, s.lastError,
                new Counts(s.foundCount, s.newCount, s.changedCount, s.skippedCount), s.createdBy, s.createdAt,
                s.updatedAt);
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
