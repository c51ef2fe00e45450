package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.librarian.airlock.discovery.SourceSnapshot;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import java.util.UUID;

/** A registered tool source and the state of its scans. */
@Entity
@Table(name = "airlock_source")
public class SourceEntity extends PanacheEntityBase {

    @Id
    public UUID id;
    @Column(nullable = false)
    public String name;
    @Column(nullable = false)
    public String type;
    @Column(nullable = false)
    public String url;
    public String branch;
    public String path;
    @Column(name = "interval_seconds", nullable = false)
    public int intervalSeconds;
    @Column(name = "suspend_on_change", nullable = false)
    public boolean suspendOnChange;
    @Column(nullable = false)
    public String status;
    @Column(name = "scan_started_at")
    public OffsetDateTime scanStartedAt;
    @Column(name = "last_scan_at")
    public OffsetDateTime lastScanAt;
    @Column(name = "next_scan_at")
    public OffsetDateTime nextScanAt;
    @Column(name = "last_error")
    public String lastError;
    @Column(name = "found_count", nullable = false)
    public int foundCount;
    @Column(name = "new_count", nullable = false)
    public int newCount;
    @Column(name = "changed_count", nullable = false)
    public int changedCount;
    @Column(name = "skipped_count", nullable = false)
    public int skippedCount;
    /** What the last successful scan could not import, one "operation: reason" per line (capped). */
    @Column(name = "skipped_operations")
    public String skippedOperations;
    @Column(name = "created_by", nullable = false)
    public String createdBy;
    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;
    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    /** The parts of this source a scan needs, read once when the scan claims it. */
    public SourceSnapshot snapshot() {
        return new SourceSnapshot(id, name, ToolSourceType.fromWire(type), url, branch, path, suspendOnChange,
                intervalSeconds);
    }
}
