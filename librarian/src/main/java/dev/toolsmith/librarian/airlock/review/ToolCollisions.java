package dev.toolsmith.librarian.airlock.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.candidate.ManifestDiff;
import dev.toolsmith.librarian.airlock.policy.PolicyView;
import dev.toolsmith.librarian.airlock.source.SourceEntity;
import dev.toolsmith.librarian.catalog.CatalogEntries;
import dev.toolsmith.librarian.catalog.CatalogTool;
import dev.toolsmith.librarian.catalog.CatalogToolVersion;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Which tools already in service a candidate would collide with. Tool ids are namespaced by the API's
 * host (or {@code x-providerName}), so another source can offer a tool with an active tool's id; the
 * capabilities manager runs one tool per verb and keeps internal plugins' verbs; and two tools of one
 * name confuse planners. In service means catalogued (internal plugins included) or approved from the
 * airlock (building or active). The candidate's own lineage (same source and operation) is not a
 * collision: its revisions have their own diff.
 *
 * <ul>
 * <li>{@code REFUSED}: the id or verb is an internal plugin's, or the verb is served by another tool id.
 * Approving it would give an ACTIVE tool the capabilities manager refuses to run.</li>
 * <li>{@code REPLACES}: same id, from another source or operation. Approving supersedes the active tool;
 * the admin must confirm it by naming that tool and state the policy the replacement runs under.</li>
 * <li>{@code SAME_NAME}: only the name matches: a warning.</li>
 * </ul>
 * Callers run inside a session (the approval's transaction, or the read of a candidate).
 */
@ApplicationScoped
public class ToolCollisions {

    /** How a candidate collides with a tool in service; in order of precedence. */
    public enum Kind { REFUSED, REPLACES, SAME_NAME }

    static final String INTERNAL_SOURCE = "the capabilities manager (internal plugin)";
    static final String UNREVIEWED_SOURCE = "no airlock source (catalogued without a review)";

    private static final String IN_SERVICE = "('APPROVED', 'ACTIVE')";

    private final ObjectMapper mapper;
    private final CatalogEntries entries;

    public ToolCollisions(ContractCodec codec, CatalogEntries entries) {
        this.mapper = codec.mapper();
        this.entries = entries;
    }

    /** Every collision of {@code candidate} (whose manifest is {@code manifest}), most serious first. */
    public Uni<List<CandidateViews.Collision>> of(CandidateEntity candidate, ToolManifest manifest) {
        if (candidate.isDraft()) {
            return Uni.createFrom().item(List.of()); // never approved, so it never enters service
        }
        return catalogMatches(manifest).chain(catalogued -> {
            Set<String> ids = new LinkedHashSet<>(catalogued.keySet());
            ids.add(manifest.id());
            return CandidateEntity.<CandidateEntity>list("status in " + IN_SERVICE + " and (toolId in ?1"
                    + " or upper(verb) = upper(?2) or lower(name) = lower(?3))", List.copyOf(ids), manifest.verb(),
                    manifest.name()).chain(approved -> sourceNames(approved).map(names -> collisions(candidate,
                            manifest, catalogued, approved, names)));
        });
    }

    /** A catalogued tool: its current manifest and access list. */
    private record Catalogued(ToolManifest manifest, List<String> allowedCallers) {
    }

    /** Catalogued tools with the manifest's id, verb (any case) or name (any case), by id. */
    private Uni<Map<String, Catalogued>> catalogMatches(ToolManifest manifest) {
        // one indexed look-up per branch (V1_2); an OR across the two tables would read every manifest
        String current = "SELECT v.tool_id FROM catalog_tool_version v JOIN catalog_tool t ON t.id = v.tool_id"
                + " AND t.current_version = v.version WHERE ";
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT id FROM catalog_tool WHERE id = :id"
                        + " UNION " + current + "upper(v.manifest ->> 'verb') = upper(:verb)"
                        + " UNION " + current + "lower(v.manifest ->> 'name') = lower(:name)",
                String.class).setParameter("id", manifest.id()).setParameter("verb", manifest.verb())
                .setParameter("name", manifest.name()).getResultList())
                .chain(ids -> {
                    if (ids.isEmpty()) {
                        return Uni.createFrom().item(Map.<String, Catalogued>of());
                    }
                    return CatalogTool.<CatalogTool>list("id in ?1", ids).chain(tools -> {
                        Map<String, CatalogTool> byId = tools.stream().collect(Collectors.toMap(t -> t.id,
                                Function.identity()));
                        return CatalogToolVersion.<CatalogToolVersion>list("toolId in ?1", ids).map(versions -> versions
                                .stream().filter(v -> byId.containsKey(v.toolId)
                                        && byId.get(v.toolId).currentVersion == v.version)
                                .collect(Collectors.toMap(v -> v.toolId, v -> new Catalogued(entries.manifest(v.manifest),
                                        List.of(byId.get(v.toolId).allowedCallers)))));
                    });
                });
    }

    private static Uni<Map<UUID, String>> sourceNames(List<CandidateEntity> rows) {
        List<UUID> ids = rows.stream().map(r -> r.sourceId).filter(Objects::nonNull).distinct().toList();
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return SourceEntity.<SourceEntity>list("id in ?1", ids)
                .map(found -> found.stream().collect(Collectors.toMap(s -> s.id, s -> s.name)));
    }

    private List<CandidateViews.Collision> collisions(CandidateEntity candidate, ToolManifest manifest,
            Map<String, Catalogued> catalogued, List<CandidateEntity> approved, Map<UUID, String> sourceNames) {
        // the approval in service for each tool id: the active one, else the one being built
        Map<String, CandidateEntity> owners = approved.stream().collect(Collectors.toMap(r -> r.toolId,
                Function.identity(), (a, b) -> ownerOrder().compare(a, b) >= 0 ? a : b));
        Set<String> toolIds = new LinkedHashSet<>(catalogued.keySet());
        toolIds.addAll(owners.keySet());
        List<CandidateViews.Collision> found = new ArrayList<>();
        for (String toolId : toolIds) {
            CandidateEntity owner = owners.get(toolId);
            if (owner != null && (owner.id.equals(candidate.id) || sameLineage(owner, candidate))) {
                continue;
            }
            Catalogued inCatalog = catalogued.get(toolId);
            ToolManifest active = inCatalog != null ? inCatalog.manifest() : manifest(owner);
            collision(candidate, manifest, toolId, active, inCatalog, owner, sourceNames).ifPresent(found::add);
        }
        found.sort(Comparator.comparing(CandidateViews.Collision::kind));
        return found;
    }

    private Optional<CandidateViews.Collision> collision(CandidateEntity candidate, ToolManifest manifest,
            String toolId, ToolManifest active, Catalogued inCatalog, CandidateEntity owner,
            Map<UUID, String> sourceNames) {
        List<String> matchedOn = new ArrayList<>();
        if (toolId.equals(manifest.id())) {
            matchedOn.add("id");
        }
        if (active.verb() != null && active.verb().equalsIgnoreCase(manifest.verb())) {
            matchedOn.add("verb");
        }
        if (active.name() != null && active.name().equalsIgnoreCase(manifest.name())) {
            matchedOn.add("name");
        }
        if (matchedOn.isEmpty()) {
            return Optional.empty();
        }
        boolean internal = owner == null && active.source() == ToolSourceType.INTERNAL;
        String source = internal ? INTERNAL_SOURCE
                : owner == null ? UNREVIEWED_SOURCE
                : sourceNames.getOrDefault(owner.sourceId, "source " + owner.sourceId);
        String from = toolId + " from " + source + (owner == null ? "" : " (" + owner.operationKey + ")");
        Kind kind;
        String message;
        if (internal && matchedOn.contains("id")) {
            kind = Kind.REFUSED;
            message = "its id " + toolId + " is an internal plugin's; an external tool cannot take it";
        } else if (internal && matchedOn.contains("verb")) {
            kind = Kind.REFUSED;
            message = "its verb " + manifest.verb() + " is served by the internal plugin " + toolId + "; the capabilities"
                    + " manager keeps the verb for it and would never run this tool";
        } else if (matchedOn.contains("id")) {
            kind = Kind.REPLACES;
            message = "replaces " + from + ": approving it supersedes that tool and its policy; confirm with"
                    + " \"confirmReplace\": \"" + toolId + "\" and state the policy";
        } else if (matchedOn.contains("verb")) {
            kind = Kind.REFUSED;
            message = "its verb " + manifest.verb() + " is already served by " + from + "; the capabilities manager"
                    + " runs one tool per verb, so this tool would be built but never run";
        } else {
            kind = Kind.SAME_NAME;
            message = "has the same name '" + manifest.name() + "' as " + from + ": planners would see two tools of"
                    + " that name";
        }
        String activeRisk = owner != null ? owner.effectiveRisk()
                : active.risk() == null ? null : active.risk().name();
        PolicyView activePolicy = owner != null && owner.policy != null ? PolicyView.of(policy(owner.policy))
                : inCatalog != null ? new PolicyView(null, null, null, inCatalog.allowedCallers(), List.of()) : null;
        return Optional.of(new CandidateViews.Collision(kind.name(), toolId, source,
                owner == null ? null : owner.sourceId, owner == null ? null : owner.operationKey,
                owner == null ? null : owner.id, List.copyOf(matchedOn), message,
                ManifestDiff.between(mapper.valueToTree(active), mapper.valueToTree(manifest)), activeRisk,
                activePolicy));
    }

    private static boolean sameLineage(CandidateEntity a, CandidateEntity b) {
        return a.sourceId != null && a.sourceId.equals(b.sourceId) && a.operationKey.equals(b.operationKey);
    }

    /** ACTIVE before APPROVED (building), then the later build. */
    private static Comparator<CandidateEntity> ownerOrder() {
        return Comparator.<CandidateEntity>comparingInt(r -> CandidateStatus.ACTIVE.name().equals(r.status) ? 1 : 0)
                .thenComparingInt(r -> r.buildVersion == null ? 0 : r.buildVersion);
    }

    private ToolManifest manifest(CandidateEntity row) {
        try {
            return mapper.readValue(row.manifest, ToolManifest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored manifest of " + row.id + " is unreadable", e);
        }
    }

    private UsagePolicy policy(String json) {
        try {
            return mapper.readValue(json, UsagePolicy.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored policy is unreadable", e);
        }
    }
}
