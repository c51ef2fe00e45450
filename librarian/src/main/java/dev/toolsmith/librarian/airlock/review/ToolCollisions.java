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
        return ofAll(Map.of(candidate, manifest)).map(found -> found.getOrDefault(candidate.id, List.of()));
    }

    /**
     * The collisions of several candidates at once (a page of the review queue), by candidate id, each as
     * {@link #of} answers it. Three look-ups for the whole page rather than two per row: with 200 rows the
     * per-row look-ups were most of the page's time.
     */
    public Uni<Map<UUID, List<CandidateViews.Collision>>> ofAll(Map<CandidateEntity, ToolManifest> candidates) {
        Map<CandidateEntity, ToolManifest> eligible = new java.util.LinkedHashMap<>();
        candidates.forEach((candidate, manifest) -> {
            if (!candidate.isDraft()) {
                eligible.put(candidate, manifest);
            }
        });
        if (eligible.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Set<String> ids = new LinkedHashSet<>();
        Set<String> verbs = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (ToolManifest manifest : eligible.values()) {
            ids.add(manifest.id());
            verbs.add(upper(manifest.verb()));
            names.add(lower(manifest.name()));
        }
        return catalogMatches(ids, verbs, names).chain(catalogued -> {
            Set<String> toolIds = new LinkedHashSet<>(catalogued.keySet());
            toolIds.addAll(ids);
            return CandidateEntity.<CandidateEntity>list("status in " + IN_SERVICE + " and (toolId in ?1"
                    + " or upper(verb) in ?2 or lower(name) in ?3)", List.copyOf(toolIds), List.copyOf(verbs),
                    List.copyOf(names)).chain(approved -> sourceNames(approved).map(sources -> {
                        Map<UUID, List<CandidateViews.Collision>> found = new java.util.HashMap<>();
                        eligible.forEach((candidate, manifest) -> {
                            Map<String, Catalogued> itsCatalogued = relevant(catalogued, manifest);
                            found.put(candidate.id, collisions(candidate, manifest, itsCatalogued,
                                    relevant(approved, manifest, itsCatalogued.keySet()), sources));
                        });
                        return found;
                    }));
        });
    }

    /** The catalogued tools one manifest's look-up would have found: same id, verb (any case) or name (any case). */
    private static Map<String, Catalogued> relevant(Map<String, Catalogued> catalogued, ToolManifest manifest) {
        return catalogued.entrySet().stream().filter(e -> e.getKey().equals(manifest.id())
                || matches(e.getValue().manifest().verb(), e.getValue().manifest().name(), manifest))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** The approvals in service one manifest's look-up would have found (also by the ids its catalogued matches have). */
    private static List<CandidateEntity> relevant(List<CandidateEntity> approved, ToolManifest manifest,
            Set<String> cataloguedIds) {
        return approved.stream().filter(r -> manifest.id().equals(r.toolId) || cataloguedIds.contains(r.toolId)
                || matches(r.verb, r.name, manifest)).toList();
    }

    private static boolean matches(String verb, String name, ToolManifest manifest) {
        return (verb != null && upper(verb).equals(upper(manifest.verb())))
                || (name != null && lower(name).equals(lower(manifest.name())));
    }

    // ASCII case folding, as PostgreSQL's upper()/lower() do for the verbs and names tools carry
    private static String upper(String text) {
        return text == null ? "" : text.toUpperCase(java.util.Locale.ROOT);
    }

    private static String lower(String text) {
        return text == null ? "" : text.toLowerCase(java.util.Locale.ROOT);
    }

    /** A catalogued tool: its current manifest and access list. */
    private record Catalogued(ToolManifest manifest, List<String> allowedCallers) {
    }

    /** Catalogued tools with one of the ids, upper-case verbs or lower-case names, by id. */
    private Uni<Map<String, Catalogued>> catalogMatches(Set<String> ids, Set<String> verbs, Set<String> names) {
        // one indexed look-up per branch (V1_2); an OR across the two tables would read every manifest
        String current = "SELECT v.tool_id FROM catalog_tool_version v JOIN catalog_tool t ON t.id = v.tool_id"
                + " AND t.current_version = v.version WHERE ";
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT id FROM catalog_tool WHERE id IN (:ids)"
                        + " UNION " + current + "upper(v.manifest ->> 'verb') IN (:verbs)"
                        + " UNION " + current + "lower(v.manifest ->> 'name') IN (:names)",
                String.class).setParameter("ids", List.copyOf(ids)).setParameter("verbs", List.copyOf(verbs))
                .setParameter("names", List.copyOf(names)).getResultList())
                .chain(matched -> {
                    if (matched.isEmpty()) {
                        return Uni.createFrom().item(Map.<String, Catalogued>of());
                    }
                    return CatalogTool.<CatalogTool>list("id in ?1", matched).chain(tools -> {
                        Map<String, CatalogTool> byId = tools.stream().collect(Collectors.toMap(t -> t.id,
                                Function.identity()));
                        return CatalogToolVersion.<CatalogToolVersion>list("toolId in ?1", matched).map(versions -> versions
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
