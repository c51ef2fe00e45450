package dev.toolsmith.librarian.catalog;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A tool's current state in the catalog; its manifests live in {@link CatalogToolVersion}. */
@Entity
@Table(name = "catalog_tool")
public class CatalogTool extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "current_version", nullable = false)
    public int currentVersion;

    /** {@code active} or {@code disabled}; see {@link ToolStatus}. */
    @Column(nullable = false)
    public String status;

    public String namespace;

    public String domain;

    /** Who may see and call the tool; empty means everyone. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "allowed_callers", nullable = false, columnDefinition = "text[]")
    public String[] allowedCallers = new String[0];

    /** The catalog revision of the latest change to this tool (see the {@code catalog_revision} sequence). */
    @Column(nullable = false)
    public long revision;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;
}
