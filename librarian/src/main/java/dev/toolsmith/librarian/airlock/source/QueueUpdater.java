package dev.toolsmith.librarian.airlock.source;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.candidate.ManifestDiff;
import dev.toolsmith.librarian.airlock.discovery.DiscoveredTool;
import dev.toolsmith.librarian.airlock.discovery.Discovery;
import dev.toolsmith.librarian.airlock.discovery.SourceSnapshot;
import dev.toolsmith.librarian.airlock.notification.Notifier;
import dev.toolsmith.search.ToolVectors;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Files what a scan found into the review queue: in batches of {@link #BATCH_SIZE} tools, each in a
 * short transaction of its own with its suspensions, then the source's new state and its notification
 * in a last one (a scan that stops half-way leaves the batches it filed; the next scan finds them
 * unchanged). The content hash decides: the same hash as the newest revision is
 * unchanged; a different one updates a still-undecided revision in place, or files the next revision
 * (with its diff against the approved one) when the newest was already decided. When an approved tool
 * changes and its source suspends on change, {@code plugin-status} DISABLED goes out with it.
 */
@ApplicationScoped
public class QueueUpdater {

    static final String SUSPENSION_REASON = "definition changed, suspended until reviewed";
    private static final Set<String> UNDECIDED = Set.of(CandidateStatus.PENDING.name(),
            CandidateStatus.BUILD_FAILED.name(), CandidateStatus.WITHDRAWN.name());
    private static final Set<String> APPROVED = Set.of(CandidateStatus.APPROVED.name(), CandidateStatus.ACTIVE.name());

    /** What a scan should do with one discovered tool (decided before embedding, applied in the transaction). */
    enum Change { NEW, UNCHANGED, CHANGED }

    /** Counts of one applied scan. */
    public record Applied(int found, int added, int changed, int skipped, List<String> suspendedToolIds) {
    }

    private final ObjectMapper mapper;
    private final Outbox outbox;
    private final Notifier notifier;
    private final AuditLog audit;

    public QueueUpdater(ContractCodec codec, Outbox outbox, Notifier notifier, AuditLog audit) {
        this.mapper = codec.mapper();
        this.outbox = outbox;
        this.notifier = notifier;
        this.audit = audit;
    }

    /** Tools filed in one transaction at most: a large document is written in several short ones. */
    static final int BATCH_SIZE = 100;

    /** Counts of one filed batch. */
    public record BatchApplied(int added, int changed, List<String> suspendedToolIds) {
    }

    /** Which of {@code tools} (one batch) are new or changed, and so need vectors; read-only. */
    public Uni<Map<String, Change>> classify(UUID sourceId, List<DiscoveredTool> tools) {
        List<String> keys = tools.stream().map(DiscoveredTool::operationKey).distinct().toList();
        return Panache.withSession(() -> CandidateEntity.<CandidateEntity>list("sourceId = ?1 and operationKey in ?2",
                sourceId, keys)).map(rows -> {
                    Map<String, CandidateEntity> latest = latestByKey(rows);
                    Map<String, Change> changes = new HashMap<>();
                    for (DiscoveredTool tool : tools) {
                        CandidateEntity current = latest.get(tool.operationKey());
                        changes.put(tool.operationKey(), current == null ? Change.NEW
                                : sameContent(current, tool)
                                        && !CandidateStatus.WITHDRAWN.name().equals(current.status) ? Change.UNCHANGED
                                                : Change.CHANGED);
                    }
                    return changes;
                });
    }

    /**
     * Whether the discovered tool is what the candidate row already holds: its stored hash recomputed in the version
     * it names (a row hashed before RFC 8785 hashes is not a change).
     */
    private boolean sameContent(CandidateEntity current, DiscoveredTool tool) {
        return ContentHash.matches(current.contentHash, tool.manifest(), mapper);
    }

    /** The tools of a discovery without repeats: a source listing the same operation twice, the first wins. */
    static List<DiscoveredTool> distinct(List<DiscoveredTool> tools) {
        Set<String> seen = new HashSet<>();
        return tools.stream().filter(tool -> seen.add(tool.operationKey())).toList();
    }

    /** {@code tools} in consecutive batches of at most {@link #BATCH_SIZE}. */
    static List<List<DiscoveredTool>> batches(List<DiscoveredTool> tools) {
        List<List<DiscoveredTool>> batches = new ArrayList<>();
        for (int from = 0; from < tools.size(); from += BATCH_SIZE) {
            batches.add(tools.subList(from, Math.min(tools.size(), from + BATCH_SIZE)));
        }
        return batches;
    }

    /**
     * Files {@code discovery} into the queue: its tools in batches, each batch in a transaction of its
     * own, then the source's state ({@code scanOfSource}: true for a scan, false for APIs a gap pulled in
     * from a directory) in a last one. Nothing but database work runs inside a transaction.
     */
    public Uni<Applied> apply(SourceSnapshot source, Discovery discovery, Map<String, ToolVectors> vectors,
            String vectorModel, boolean scanOfSource) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<DiscoveredTool> tools = distinct(discovery.tools());
        return Multi.createFrom().iterable(batches(tools))
                .onItem().transformToUniAndConcatenate(batch -> fileBatch(source, batch, vectors, vectorModel, now))
                .collect().asList()
                .chain(filed -> finish(source, discovery, total(filed), scanOfSource, now));
    }

    /** The counts of several batches together. */
    static BatchApplied total(List<BatchApplied> batches) {
        int added = 0;
        int changed = 0;
        List<String> suspended = new ArrayList<>();
        for (BatchApplied batch : batches) {
            added += batch.added();
            changed += batch.changed();
            suspended.addAll(batch.suspendedToolIds());
        }
        return new BatchApplied(added, changed, suspended);
    }

    /**
     * Files one batch of distinct tools in one transaction: new ones are added, changed ones update their
     * undecided revision or file the next one (suspending an approved tool when the source asks for it).
     */
    public Uni<BatchApplied> fileBatch(SourceSnapshot source, List<DiscoveredTool> batch,
            Map<String, ToolVectors> vectors, String vectorModel, OffsetDateTime now) {
        List<String> keys = batch.stream().map(DiscoveredTool::operationKey).toList();
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>list(
                "sourceId = ?1 and operationKey in ?2", source.id(), keys).chain(rows -> {
                    Map<String, List<CandidateEntity>> byKey = rows.stream()
                            .collect(Collectors.groupingBy(r -> r.operationKey));
                    Map<String, CandidateEntity> latest = latestByKey(rows);
                    List<Uni<?>> work = new ArrayList<>();
                    int added = 0;
                    int changed = 0;
                    List<String> suspended = new ArrayList<>();
                    for (DiscoveredTool tool : batch) {
                        CandidateEntity current = latest.get(tool.operationKey());
                        ToolVectors toolVectors = vectors.get(tool.operationKey());
                        if (current == null) {
                            work.add(insert(source, tool, 1, null, toolVectors, vectorModel, now).persist());
                            added++;
                        } else if (sameContent(current, tool)
                                && !CandidateStatus.WITHDRAWN.name().equals(current.status)) {
                            continue;
                        } else if (UNDECIDED.contains(current.status)) {
                            boolean revived = CandidateStatus.WITHDRAWN.name().equals(current.status)
                                    && sameContent(current, tool);
                            fill(current, tool, diffAgainstApproved(byKey.get(tool.operationKey()), tool), toolVectors,
                                    vectorModel, now);
                            current.status = CandidateStatus.PENDING.name();
                            current.buildReport = null;
                            current.buildFailure = null;
                            if (revived) {
                                added++;
                            } else {
                                changed++;
                            }
                        } else {
                            CandidateEntity next = insert(source, tool, current.revision + 1,
                                    diffAgainstApproved(byKey.get(tool.operationKey()), tool), toolVectors,
                                    vectorModel, now);
                            work.add(next.persist());
                            changed++;
                            if (source.suspendOnChange() && APPROVED.contains(current.status)) {
                                suspended.add(current.toolId);
                                work.add(suspend(source, current));
                            }
                        }
                    }
                    return sequence(work).replaceWith(new BatchApplied(added, changed, suspended));
                }));
    }

    /**
     * Closes a filing in one short transaction: undecided candidates the source no longer offers are
     * withdrawn (when the discovery is complete), admins are told about new and changed tools, and a
     * scan records the source's new state.
     */
    public Uni<Applied> finish(SourceSnapshot source, Discovery discovery, BatchApplied filed, boolean scanOfSource,
            OffsetDateTime now) {
        Set<String> seen = new HashSet<>();
        discovery.tools().forEach(tool -> seen.add(tool.operationKey()));
        int added = filed.added();
        int changed = filed.changed();
        Applied applied = new Applied(discovery.offered(), added, changed, discovery.skipped().size(),
                filed.suspendedToolIds());
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>list("sourceId", source.id())
                .chain(rows -> {
                    List<Uni<?>> work = new ArrayList<>();
                    for (Map.Entry<String, CandidateEntity> entry : latestByKey(rows).entrySet()) {
                        CandidateEntity row = entry.getValue();
                        if (discovery.complete() && !seen.contains(entry.getKey()) && (CandidateStatus.PENDING.name().equals(row.status)
                                || CandidateStatus.BUILD_FAILED.name().equals(row.status))) {
                            row.status = CandidateStatus.WITHDRAWN.name();
                            row.updatedAt = now;
                        }
                    }
                    if (added + changed > 0) {
                        work.add(notifier.raise(Notification.Kind.NEW_PENDING_TOOLS, Notification.Severity.INFO,
                                added + " new and " + changed + " changed tools from " + source.name() + " await review",
                                "Source " + source.name() + " (" + source.type().wire() + ") was scanned: "
                                        + discovery.tools().size() + " tools found.",
                                source.id().toString()));
                    }
                    if (scanOfSource) {
                        // an update query, not an entity write: a source deleted meanwhile matches no row
                        work.add(SourceEntity.update("status = 'OK', lastScanAt = ?1, nextScanAt = ?2,"
                                + " scanStartedAt = null, lastError = null, foundCount = ?3, newCount = ?4,"
                                + " changedCount = ?5, skippedCount = ?6, skippedOperations = ?7, updatedAt = ?1"
                                + " where id = ?8", now, now.plusSeconds(source.intervalSeconds()), applied.found(),
                                applied.added(), applied.changed(), applied.skipped(),
                                SourceView.storedSkipped(discovery.skipped()), source.id()));
                    }
                    return sequence(work).replaceWith(applied);
                }));
    }

    private Uni<Void> suspend(SourceSnapshot source, CandidateEntity approved) {
        PluginStatusChanged event = new PluginStatusChanged(approved.toolId, PluginStatus.DISABLED, SUSPENSION_REASON,
                "librarian-airlock", java.time.Instant.now());
        return outbox.append(Topics.PLUGIN_STATUS, approved.toolId, event)
                .chain(() -> audit.record("system", AuditLog.Action.SUSPENDED, "tool", approved.toolId,
                        "Tool " + approved.toolId + " suspended: its definition changed in source " + source.name()
                                + ", which suspends on change",
                        Map.of("status", "ENABLED", "revision", approved.revision),
                        Map.of("status", "DISABLED", "reason", SUSPENSION_REASON)));
    }

    /** The diff against the newest approved (building or active) revision, or null when none was approved. */
    private JsonNode diffAgainstApproved(List<CandidateEntity> revisions, DiscoveredTool tool) {
        if (revisions == null) {
            return null;
        }
        return revisions.stream().filter(r -> APPROVED.contains(r.status))
                .max(Comparator.comparingInt(r -> r.revision))
                .map(approved -> (JsonNode) ManifestDiff.between(read(approved.manifest),
                        mapper.valueToTree(tool.manifest())))
                .orElse(null);
    }

    private CandidateEntity insert(SourceSnapshot source, DiscoveredTool tool, int revision, JsonNode diff,
            ToolVectors vectors, String vectorModel, OffsetDateTime now) {
        CandidateEntity row = new CandidateEntity();
        row.id = UUID.randomUUID();
        row.sourceId = source.id();
        row.operationKey = tool.operationKey();
        row.revision = revision;
        row.status = CandidateStatus.PENDING.name();
        row.discoveredAt = now;
        fill(row, tool, diff, vectors, vectorModel, now);
        return row;
    }

    private void fill(CandidateEntity row, DiscoveredTool tool, JsonNode diff, ToolVectors vectors, String vectorModel,
            OffsetDateTime now) {
        row.toolId = tool.manifest().id();
        row.contentHash = tool.manifest().contentHash();
        row.verb = tool.manifest().verb();
        row.name = tool.manifest().name();
        row.risk = tool.manifest().risk() == null ? "WRITE_REMOTE" : tool.manifest().risk().name();
        row.manifest = write(tool.manifest());
        row.operation = tool.operation() == null ? null : tool.operation().toString();
        row.warnings = tool.warnings().isEmpty() ? null : write(tool.warnings());
        row.diff = diff == null ? null : diff.toString();
        row.vectors = vectors == null ? null : vectors.toBytes();
        row.vectorModel = vectors == null ? null : vectorModel;
        row.updatedAt = now;
    }

    static Map<String, CandidateEntity> latestByKey(List<CandidateEntity> rows) {
        return rows.stream().collect(Collectors.toMap(r -> r.operationKey, Function.identity(),
                (a, b) -> a.revision >= b.revision ? a : b));
    }

    private JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored manifest is not JSON", e);
        }
    }

    private String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the unis one after another on the session (Hibernate Reactive sessions are not concurrent).
     * A concatenating stream, not a nest of {@code chain} calls: steps that complete at once (a persist
     * before the flush) would otherwise each add frames to one call stack, and a few hundred of them
     * overflowed it on the event loop, leaving the transaction open and its caller waiting for good.
     */
    public static Uni<Void> sequence(List<Uni<?>> work) {
        return Multi.createFrom().iterable(work).onItem().transformToUniAndConcatenate(step -> step)
                .collect().last().replaceWithVoid();
    }
}
