package dev.toolsmith.librarian.airlock;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.search.ToolVectors;
import io.quarkus.hibernate.reactive.panache.Panache;
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
 * Files what a scan found into the review queue, in one transaction with the source's new state, its
 * notifications and any suspensions. The content hash decides: the same hash as the newest revision is
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

    /** Which discovered tools are new or changed (and so need vectors); read-only. */
    public Uni<Map<String, Change>> classify(UUID sourceId, List<DiscoveredTool> tools) {
        return Panache.withSession(() -> CandidateEntity.<CandidateEntity>list("sourceId", sourceId)).map(rows -> {
            Map<String, CandidateEntity> latest = latestByKey(rows);
            Map<String, Change> changes = new HashMap<>();
            for (DiscoveredTool tool : tools) {
                CandidateEntity current = latest.get(tool.operationKey());
                changes.put(tool.operationKey(), current == null ? Change.NEW
                        : current.contentHash.equals(tool.manifest().contentHash())
                                && !CandidateStatus.WITHDRAWN.name().equals(current.status) ? Change.UNCHANGED
                                        : Change.CHANGED);
            }
            return changes;
        });
    }

    /**
     * Files {@code discovery} into the queue. {@code scanOfSource} is true for a scan, which also records
     * the source's state; false for APIs a gap pulled in from a directory.
     */
    public Uni<Applied> apply(SourceSnapshot source, Discovery discovery, Map<String, ToolVectors> vectors,
            String vectorModel, boolean scanOfSource) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>list("sourceId", source.id())
                .chain(rows -> {
                    Map<String, List<CandidateEntity>> byKey = rows.stream()
                            .collect(Collectors.groupingBy(r -> r.operationKey));
                    Map<String, CandidateEntity> latest = latestByKey(rows);
                    List<Uni<?>> work = new ArrayList<>();
                    int added = 0;
                    int changed = 0;
                    List<String> suspended = new ArrayList<>();
                    Set<String> seen = new HashSet<>();
                    for (DiscoveredTool tool : discovery.tools()) {
                        if (!seen.add(tool.operationKey())) {
                            continue; // a source listing the same operation twice: the first wins
                        }
                        CandidateEntity current = latest.get(tool.operationKey());
                        ToolVectors toolVectors = vectors.get(tool.operationKey());
                        if (current == null) {
                            work.add(insert(source, tool, 1, null, toolVectors, vectorModel, now).persist());
                            added++;
                        } else if (current.contentHash.equals(tool.manifest().contentHash())
                                && !CandidateStatus.WITHDRAWN.name().equals(current.status)) {
                            continue;
                        } else if (UNDECIDED.contains(current.status)) {
                            boolean revived = CandidateStatus.WITHDRAWN.name().equals(current.status)
                                    && current.contentHash.equals(tool.manifest().contentHash());
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
                    for (Map.Entry<String, CandidateEntity> entry : latest.entrySet()) {
                        CandidateEntity row = entry.getValue();
                        if (discovery.complete() && !seen.contains(entry.getKey()) && (CandidateStatus.PENDING.name().equals(row.status)
                                || CandidateStatus.BUILD_FAILED.name().equals(row.status))) {
                            row.status = CandidateStatus.WITHDRAWN.name();
                            row.updatedAt = now;
                        }
                    }
                    Applied applied = new Applied(discovery.offered(), added, changed, discovery.skipped().size(),
                            suspended);
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
                                + " changedCount = ?5, skippedCount = ?6, updatedAt = ?1 where id = ?7", now,
                                now.plusSeconds(source.intervalSeconds()), applied.found(), applied.added(),
                                applied.changed(), applied.skipped(), source.id()));
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

    /** Runs the unis one after another on the session (Hibernate Reactive sessions are not concurrent). */
    static Uni<Void> sequence(List<Uni<?>> work) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (Uni<?> step : work) {
            chain = chain.chain(() -> step).replaceWithVoid();
        }
        return chain;
    }
}
