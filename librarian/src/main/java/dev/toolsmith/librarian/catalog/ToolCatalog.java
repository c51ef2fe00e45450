package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalog's write side. Every change commits together with its {@code tool-catalog} event in the
 * outbox (an entry, or a tombstone for a delete), so the replicas' indexes follow the catalog exactly.
 * Each method joins the caller's transaction when there is one (an idempotent consumer's) and opens one
 * otherwise. Every change also writes its audit entry in that transaction, naming who made it
 * ({@link CatalogActor}): nothing enters, changes in or leaves the catalog unrecorded.
 */
@ApplicationScoped
public class ToolCatalog {

    /** First key of the catalog's advisory locks (the second is the tool id's hash). */
    private static final int CATALOG_LOCK_SPACE = 0x746f6f6c; // "tool"

    private final ContractCodec codec;
    private final Outbox outbox;
    private final CatalogVectorizer vectorizer;
    private final CatalogEntries entries;
    private final AuditLog audit;

    public ToolCatalog(ContractCodec codec, Outbox outbox, CatalogVectorizer vectorizer, CatalogEntries entries,
            AuditLog audit) {
        this.codec = codec;
        this.outbox = outbox;
        this.vectorizer = vectorizer;
        this.entries = entries;
        this.audit = audit;
    }

    /**
     * Catalogs {@code submitted}. The same content hash as the current version changes nothing (apart from
     * the access list, when given and different); another hash makes the next version, embedded once here.
     *
     * @param allowedCallers the tool's new access list, or null to keep the current one (a new tool: everyone)
     * @param by who makes the change, for the audit entry
     */
    public Uni<IndexOutcome> index(ToolManifest submitted, List<String> allowedCallers, CatalogActor by) {
        String hash = ContentHash.of(submitted, codec.mapper());
        return Panache.withTransaction(() -> lockToolId(submitted.id()).chain(() -> CatalogTool.<CatalogTool>findById(
                submitted.id(), LockModeType.PESSIMISTIC_WRITE)).chain(existing -> {
                    if (existing == null) {
                        return newVersion(null, submitted, hash, allowedCallers, by);
                    }
                    return currentVersion(existing).chain(current -> {
                        // the stored hash recomputed in the version it names: a version hashed before RFC 8785
                        // hashes is not changed by the new hash of the same content
                        if (!ContentHash.matches(current.contentHash, submitted, codec.mapper())) {
                            return newVersion(existing, submitted, hash, allowedCallers, by);
                        }
                        String[] callers = callers(allowedCallers);
                        if (allowedCallers == null || Arrays.equals(existing.allowedCallers, callers)) {
                            return Uni.createFrom().item(new IndexOutcome(existing.id, existing.currentVersion,
                                    current.contentHash, existing.status, false, Optional.empty()));
                        }
                        List<String> before = List.of(existing.allowedCallers);
                        existing.allowedCallers = callers;
                        return publish(existing, current).call(() -> audit.record(by.name(),
                                AuditLog.Action.CATALOG_ACCESS_CHANGED, "tool", existing.id, "Allowed callers of "
                                        + existing.id + " changed (" + by.through() + ")",
                                Map.of("allowedCallers", before), Map.of("allowedCallers", List.of(callers))))
                                .map(change -> new IndexOutcome(existing.id, existing.currentVersion,
                                        current.contentHash, existing.status, false, Optional.of(change)));
                    });
                }));
    }

    private Uni<IndexOutcome> newVersion(CatalogTool existing, ToolManifest submitted, String hash,
            List<String> allowedCallers, CatalogActor by) {
        int version = existing == null ? 1 : existing.currentVersion + 1;
        ToolManifest manifest = submitted.withVersion(version, hash);
        return vectorizer.vectorize(manifest).chain(vectors -> {
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            CatalogTool tool = existing != null ? existing : new CatalogTool();
            if (existing == null) {
                tool.id = manifest.id();
                tool.status = ToolStatus.ACTIVE.wire();
                tool.createdAt = now;
                tool.allowedCallers = callers(allowedCallers);
            } else if (allowedCallers != null) {
                tool.allowedCallers = callers(allowedCallers);
            }
            tool.currentVersion = version;
            tool.updatedAt = now;
            tool.namespace = manifest.namespace();
            tool.domain = manifest.domain();
            CatalogToolVersion row = new CatalogToolVersion();
            row.toolId = manifest.id();
            row.version = version;
            row.contentHash = hash;
            row.manifest = entries.json(manifest);
            row.vectorModel = vectors.modelId();
            row.vectors = vectors.toBytes();
            row.createdAt = now;
            Uni<?> saveTool = existing == null ? tool.persist() : Uni.createFrom().item(tool);
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("version", version);
            after.put("contentHash", hash);
            after.put("source", manifest.source() == null ? null : manifest.source().wire());
            after.put("verb", manifest.verb());
            after.put("allowedCallers", List.of(tool.allowedCallers));
            Map<String, Object> before = existing == null ? null : Map.of("version", version - 1);
            return saveTool.chain(() -> row.persist()).chain(() -> publish(tool, row))
                    .call(() -> audit.record(by.name(), AuditLog.Action.CATALOGED, "tool", tool.id,
                            "Catalogued " + tool.id + " version " + version + " (" + by.through() + ")", before, after))
                    .map(change -> new IndexOutcome(tool.id, version, hash, tool.status, true, Optional.of(change)));
        });
    }

    /**
     * Sets a tool's status; empty when the tool is unknown or already in that status. {@code reason}, when
     * given, is why (an admin's reason for disabling, or the health worker's), kept in the audit entry.
     */
    public Uni<Optional<CatalogChange>> setStatus(String toolId, ToolStatus status, CatalogActor by, String reason) {
        return Panache.withTransaction(() -> CatalogTool.<CatalogTool>findById(toolId, LockModeType.PESSIMISTIC_WRITE)
                .chain(tool -> {
                    if (tool == null || tool.status.equals(status.wire())) {
                        return Uni.createFrom().item(Optional.<CatalogChange>empty());
                    }
                    String before = tool.status;
                    tool.status = status.wire();
                    return currentVersion(tool).chain(version -> publish(tool, version))
                            .call(() -> audit.record(by.name(), AuditLog.Action.CATALOG_STATUS_CHANGED, "tool", toolId,
                                    toolId + " is now " + tool.status + " in the catalog (" + by.through() + ")"
                                            + (reason == null || reason.isBlank() ? "" : ": " + reason),
                                    Map.of("status", before), reason == null || reason.isBlank()
                                            ? Map.of("status", tool.status)
                                            : Map.of("status", tool.status, "reason", reason)))
                            .map(Optional::of);
                }));
    }

    /**
     * Deletes a tool and all its versions and publishes a tombstone, audited as {@code RETIRED} with the
     * reason; empty when the tool is unknown. The row goes by a bulk delete, not by removing the loaded entity:
     * Hibernate Reactive's entity removal under concurrent requests continued the session on another event loop
     * (HR000069, quarkusio/quarkus#41945), which failed source deletes (SourceService.delete).
     */
    public Uni<Optional<CatalogChange>> delete(String toolId, String reason, CatalogActor by) {
        return Panache.withTransaction(() -> CatalogTool.<CatalogTool>findById(toolId, LockModeType.PESSIMISTIC_WRITE)
                .chain(tool -> {
                    if (tool == null) {
                        return Uni.createFrom().item(Optional.<CatalogChange>empty());
                    }
                    Map<String, Object> before = new LinkedHashMap<>();
                    before.put("version", tool.currentVersion);
                    before.put("status", tool.status);
                    before.put("allowedCallers", List.of(tool.allowedCallers));
                    return CatalogToolVersion.delete("toolId", toolId)
                            .chain(() -> CatalogTool.delete("id", toolId))
                            .chain(() -> nextRevision())
                            .call(() -> outbox.appendTombstone(Topics.TOOL_CATALOG, toolId))
                            .call(() -> audit.record(by.name(), AuditLog.Action.RETIRED, "tool", toolId,
                                    "Retired " + toolId + " from the catalog (" + by.through() + "): " + reason, before,
                                    null))
                            .map(revision -> Optional.<CatalogChange>of(new CatalogChange.Removed(toolId, revision)));
                }));
    }

    /** Takes a new revision for {@code tool}, saves it and appends its entry to the outbox. */
    private Uni<CatalogChange> publish(CatalogTool tool, CatalogToolVersion version) {
        return nextRevision().chain(revision -> {
            tool.revision = revision;
            tool.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
            if (tool.createdAt == null) {
                tool.createdAt = tool.updatedAt;
            }
            CatalogEntry entry = entries.of(tool, version);
            return outbox.append(Topics.TOOL_CATALOG, tool.id, entry)
                    .replaceWith(new CatalogChange.Upserted(entry));
        });
    }

    private static Uni<CatalogToolVersion> currentVersion(CatalogTool tool) {
        return CatalogToolVersion.<CatalogToolVersion>findById(new CatalogToolVersion.Key(tool.id, tool.currentVersion))
                .map(v -> Objects.requireNonNull(v, () -> "catalog_tool " + tool.id + " has no row for its version "
                        + tool.currentVersion));
    }

    /**
     * Serialises indexing of one tool id until the transaction ends, also while no row exists yet (a row
     * lock cannot cover that): two concurrent first indexings would otherwise both insert version 1.
     * The two-integer advisory-lock space keeps these apart from single-key locks such as the relay's.
     */
    private static Uni<Void> lockToolId(String toolId) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT 1 FROM (SELECT pg_advisory_xact_lock(" + CATALOG_LOCK_SPACE + ", hashtext(:id))) AS locked",
                Integer.class).setParameter("id", toolId).getSingleResult()).replaceWithVoid();
    }

    private static Uni<Long> nextRevision() {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT nextval('catalog_revision')", Long.class).getSingleResult());
    }

    private static String[] callers(List<String> allowedCallers) {
        if (allowedCallers == null) {
            return new String[0];
        }
        return allowedCallers.stream().filter(c -> c != null && !c.isBlank()).map(String::strip).distinct().sorted()
                .toArray(String[]::new);
    }
}
