package dev.toolsmith.librarian.airlock.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.airlock.ListOrder;
import dev.toolsmith.librarian.airlock.SearchText;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.gap.GapEntity;
import dev.toolsmith.librarian.airlock.gap.GapMatchEntity;
import dev.toolsmith.librarian.airlock.policy.PolicyView;
import dev.toolsmith.librarian.airlock.source.SourceEntity;
import dev.toolsmith.librarian.airlock.warning.ServerAddressWarnings;
import dev.toolsmith.librarian.airlock.warning.ServerWarning;
import dev.toolsmith.librarian.airlock.warning.TextWarnings;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** Reads the review queue: filtered pages and one candidate in full. */
@ApplicationScoped
public class ReviewQueries {

    /**
     * Filters of {@code GET /tools/pending}; null means any. {@code text} is a LIKE pattern from
     * {@link SearchText} matched against verb, name, tool id, operation and source name.
     */
    public record Filter(UUID sourceId, Set<CandidateStatus> statuses, String risk, String gap, String text) {
    }

    /** The keys {@code GET /tools/pending?sort=} offers and what each sorts by. */
    static final Map<String, String> SORTS = orderedSorts();

    static final String DEFAULT_SORT = "-updated";

    private static Map<String, String> orderedSorts() {
        Map<String, String> sorts = new java.util.LinkedHashMap<>();
        sorts.put("updated", "updatedAt");
        sorts.put("discovered", "discoveredAt");
        sorts.put("verb", "verb");
        sorts.put("name", "name");
        sorts.put("tool", "toolId");
        sorts.put("status", "status");
        // by severity, not by name
        sorts.put("risk", "case coalesce(riskOverride, risk) when 'READ_ONLY' then 0 when 'WRITE_LOCAL' then 1"
                + " when 'WRITE_REMOTE' then 2 else 3 end");
        sorts.put("source", "coalesce((select s.name from SourceEntity s where s.id = sourceId), '')");
        return java.util.Collections.unmodifiableMap(sorts);
    }

    private static final int MAX_DESCRIPTION = 300;

    private final ObjectMapper mapper;
    private final ToolCollisions collisions;

    public ReviewQueries(ContractCodec codec, ToolCollisions collisions) {
        this.mapper = codec.mapper();
        this.collisions = collisions;
    }

    private record Where(String clause, Parameters params) {
    }

    private static Where where(Filter filter) {
        StringBuilder where = new StringBuilder("status in :statuses");
        Parameters params = Parameters.with("statuses", filter.statuses().stream().map(Enum::name).toList());
        if (filter.sourceId() != null) {
            where.append(" and sourceId = :source");
            params.and("source", filter.sourceId());
        }
        if (filter.risk() != null) {
            where.append(" and coalesce(riskOverride, risk) = :risk");
            params.and("risk", filter.risk());
        }
        if (filter.gap() != null) {
            // the candidates matched to the gap, and the LLM draft written for it
            where.append(" and (draftGap = :gap or id in (select m.candidateId from GapMatchEntity m"
                    + " where m.normalizedVerb = :gap))");
            params.and("gap", filter.gap());
        }
        if (filter.text() != null) {
            where.append(" and (").append(SearchText.contains("verb", "q")).append(" or ")
                    .append(SearchText.contains("name", "q")).append(" or ")
                    .append(SearchText.contains("toolId", "q")).append(" or ")
                    .append(SearchText.contains("operationKey", "q"))
                    .append(" or sourceId in (select s.id from SourceEntity s where ")
                    .append(SearchText.contains("s.name", "q")).append("))");
            params.and("q", filter.text());
        }
        return new Where(where.toString(), params);
    }

    /** @param orderBy an {@code order by} clause from {@link ListOrder} over {@link #SORTS} */
    public Uni<CandidateViews.Page> list(Filter filter, String orderBy, int page, int size) {
        Where where = where(filter);
        String query = where.clause() + orderBy;
        return Panache.withSession(() -> CandidateEntity.<CandidateEntity>find(query, where.params())
                .page(Page.of(page, size)).list().chain(rows -> CandidateEntity.count(where.clause(), where.params())
                        .chain(total -> context(rows).chain(ctx -> collisionKinds(rows).map(kinds ->
                                new CandidateViews.Page(rows.stream().map(r -> summary(r, ctx, kinds.get(r.id))).toList(),
                                        page, size, total))))));
    }

    /**
     * The ids of every candidate the filter matches, oldest change first, for a decision by filter; at most
     * {@code limit} + 1, so a caller can tell "too many" without reading them all.
     */
    public Uni<List<UUID>> ids(Filter filter, int limit) {
        Where where = where(filter);
        return Panache.withSession(() -> CandidateEntity.<CandidateEntity>find(where.clause() + " order by updatedAt, id",
                where.params()).range(0, limit).list().map(rows -> rows.stream().map(r -> r.id).toList()));
    }

    /**
     * The most serious collision kind of each undecided row, so the queue marks a replacement or a refusal
     * before the reviewer opens it (decided rows are not looked at: nothing more can happen to them).
     * One batched look-up for the page ({@link ToolCollisions#ofAll}).
     */
    private Uni<Map<UUID, String>> collisionKinds(List<CandidateEntity> rows) {
        Map<CandidateEntity, ToolManifest> undecided = new java.util.LinkedHashMap<>();
        for (CandidateEntity row : rows) {
            if (!row.isDraft() && CandidateStatus.DECIDABLE.contains(CandidateStatus.valueOf(row.status))) {
                undecided.put(row, manifest(row));
            }
        }
        return collisions.ofAll(undecided).map(found -> {
            Map<UUID, String> kinds = new HashMap<>();
            found.forEach((id, list) -> {
                if (!list.isEmpty()) {
                    kinds.put(id, list.get(0).kind());
                }
            });
            return kinds;
        });
    }

    public Uni<CandidateViews.Details> details(UUID id) {
        return Panache.withSession(() -> CandidateEntity.<CandidateEntity>findById(id).chain(row -> {
            if (row == null) {
                throw new NotFoundException("no pending tool " + id);
            }
            if (row.isDraft()) { // a draft is never approved: no approved revision to compare with, no collisions
                return context(List.of(row)).map(ctx -> details(row, ctx, null, List.of()));
            }
            return context(List.of(row)).chain(ctx -> CandidateEntity.<CandidateEntity>find(
                    "sourceId = ?1 and operationKey = ?2 and revision < ?3 and status in ('APPROVED', 'ACTIVE')"
                            + " order by revision desc", row.sourceId, row.operationKey, row.revision)
                    .<CandidateEntity>firstResult().chain(approved -> collisions.of(row, manifest(row))
                            .map(found -> details(row, ctx, approved, found))));
        }));
    }

    private record Context(Map<UUID, String> sourceNames, Map<UUID, List<CandidateViews.GapTag>> gaps) {
    }

    private Uni<Context> context(List<CandidateEntity> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(new Context(Map.of(), Map.of()));
        }
        List<UUID> ids = rows.stream().map(r -> r.id).toList();
        List<UUID> sources = rows.stream().map(r -> r.sourceId).filter(Objects::nonNull).distinct().toList();
        Uni<List<SourceEntity>> sourceRows = sources.isEmpty() ? Uni.createFrom().item(List.of())
                : SourceEntity.list("id in ?1", sources);
        return sourceRows.chain(found -> {
            Map<UUID, String> names = found.stream().collect(Collectors.toMap(s -> s.id, s -> s.name));
            return GapMatchEntity.<GapMatchEntity>list("candidateId in ?1 order by score desc", ids).chain(matches -> {
                List<String> verbs = matches.stream().map(m -> m.normalizedVerb).distinct().toList();
                Uni<List<GapEntity>> gapsUni = verbs.isEmpty() ? Uni.createFrom().item(List.of())
                        : GapEntity.list("normalizedVerb in ?1", verbs);
                return gapsUni.map(gapRows -> {
                    Map<String, GapEntity> byVerb = gapRows.stream().collect(Collectors.toMap(g -> g.normalizedVerb,
                            g -> g));
                    Map<UUID, List<CandidateViews.GapTag>> tags = new HashMap<>();
                    for (GapMatchEntity m : matches) {
                        GapEntity gap = byVerb.get(m.normalizedVerb);
                        tags.computeIfAbsent(m.candidateId, k -> new ArrayList<>()).add(new CandidateViews.GapTag(
                                m.normalizedVerb, gap == null ? m.normalizedVerb : gap.actionVerb,
                                gap == null ? 0 : gap.timesSeen, m.score, m.confidence));
                    }
                    return new Context(names, tags);
                });
            });
        });
    }

    private CandidateViews.Summary summary(CandidateEntity r, Context ctx, String collision) {
        JsonNode manifest = read(r.manifest);
        String description = manifest.path("description").asText("");
        if (description.length() > MAX_DESCRIPTION) {
            description = description.substring(0, MAX_DESCRIPTION - 1) + "…";
        }
        List<String> gaps = new ArrayList<>();
        if (r.isDraft()) {
            gaps.add(r.draftGap);
        }
        ctx.gaps().getOrDefault(r.id, List.of()).stream().map(CandidateViews.GapTag::normalizedVerb)
                .filter(verb -> !gaps.contains(verb)).forEach(gaps::add);
        return new CandidateViews.Summary(r.id, r.sourceId, sourceName(r, ctx), r.operationKey, r.revision, r.toolId,
                r.verb, r.name, description, r.effectiveRisk(), r.status, r.diff != null, gaps, r.draftGap,
                r.discoveredAt, r.updatedAt, collision);
    }

    private CandidateViews.Details details(CandidateEntity r, Context ctx, CandidateEntity approved,
            List<CandidateViews.Collision> collided) {
        List<ServerWarning> servers = ServerAddressWarnings.of(read(r.manifest));
        return new CandidateViews.Details(r.id, r.sourceId, sourceName(r, ctx), r.operationKey,
                r.revision, r.toolId, r.status, r.risk, r.riskOverride, r.effectiveRisk(), read(r.manifest),
                read(r.operation), withServerWarnings(withCollisions(read(r.warnings), collided), servers), read(r.diff),
                approved == null ? null : approved.revision, ctx.gaps().getOrDefault(r.id, List.of()), policy(r.policy),
                r.decidedBy, r.decidedAt, r.rejectReason, read(r.buildReport), r.buildFailure, r.draftGap,
                r.discoveredAt, r.updatedAt, collided, servers, TextWarnings.of(read(r.manifest)));
    }

    /** The stored warnings plus one line per collision, so every client that shows warnings shows these. */
    private JsonNode withCollisions(JsonNode warnings, List<CandidateViews.Collision> collided) {
        if (collided.isEmpty()) {
            return warnings;
        }
        ArrayNode all = warnings instanceof ArrayNode stored ? stored.deepCopy() : mapper.createArrayNode();
        for (CandidateViews.Collision c : collided) {
            all.add(switch (ToolCollisions.Kind.valueOf(c.kind())) {
                case REFUSED -> "Cannot be approved: " + c.message();
                case REPLACES -> "This tool " + c.message();
                case SAME_NAME -> "This tool " + c.message();
            });
        }
        return all;
    }

    /** The warnings plus one line per server warning, like the collisions' (the UI shows these apart, in red). */
    private JsonNode withServerWarnings(JsonNode warnings, List<ServerWarning> servers) {
        if (servers.isEmpty()) {
            return warnings;
        }
        ArrayNode all = warnings instanceof ArrayNode stored ? stored.deepCopy() : mapper.createArrayNode();
        servers.forEach(w -> all.add(w.message()));
        return all;
    }

    private ToolManifest manifest(CandidateEntity row) {
        try {
            return mapper.readValue(row.manifest, ToolManifest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored manifest of " + row.id + " is unreadable", e);
        }
    }

    private static String sourceName(CandidateEntity r, Context ctx) {
        return r.isDraft() ? CandidateViews.DRAFT_SOURCE_NAME : ctx.sourceNames().get(r.sourceId);
    }

    private PolicyView policy(String json) {
        if (json == null) {
            return null;
        }
        try {
            return PolicyView.of(mapper.readValue(json, UsagePolicy.class));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored policy is unreadable", e);
        }
    }

    private JsonNode read(String json) {
        if (json == null) {
            return null;
        }
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }
}
