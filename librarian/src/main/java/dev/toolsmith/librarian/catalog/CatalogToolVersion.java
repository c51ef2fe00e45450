package dev.toolsmith.librarian.catalog;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * One version of a tool's manifest, immutable once written, with the dense vectors computed for it so a
 * restart loads them instead of embedding the tool again.
 */
@Entity
@Table(name = "catalog_tool_version")
@IdClass(CatalogToolVersion.Key.class)
public class CatalogToolVersion extends PanacheEntityBase {

    @Id
    @Column(name = "tool_id")
    public String toolId;

    @Id
    public int version;

    @Column(name = "content_hash", nullable = false)
    public String contentHash;

    /** The manifest as indexed, carrying this version and hash. */
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public String manifest;

    @Column(name = "vector_model", nullable = false)
    public String vectorModel;

    @Column(nullable = false)
    public byte[] vectors;

    @Column(name = "created_at", nullable = false)
    public OffsetDateTime createdAt;

    /** The composite key: tool id and version. */
    public static class Key implements Serializable {
        public String toolId;
        public int version;

        public Key() {
        }

        public Key(String toolId, int version) {
            this.toolId = toolId;
            this.version = version;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.version == version && Objects.equals(k.toolId, toolId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(toolId, version);
        }
    }
}
