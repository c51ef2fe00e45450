package dev.toolsmith.librarian.airlock.gap;

import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.airlock.PageLimit;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Page;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Capability gaps as find-or-build saw them: how often, and which queued candidates could fill them. */
@Path("/gaps")
@Tag(name = "Airlock: gaps")
@Produces(MediaType.APPLICATION_JSON)
public class GapResource {

    /** A candidate matched to a gap. */
    public record Match(UUID candidateId, String toolId, String name, String status, double score, double confidence) {
    }

    /** The LLM draft find-or-build filed for a gap (its newest revision): a specification, never approvable. */
    public record Draft(UUID candidateId, String toolId, int revision, String status) {
    }

    /** A gap with its frequency, matches and, when the engineer drafted the missing tool, its draft. */
    public record Gap(String normalizedVerb, String actionVerb, String description, long timesSeen,
            OffsetDateTime firstSeenAt, OffsetDateTime lastSeenAt, List<Match> matches, Draft draft) {
    }

    /** A page of gaps, most frequent first. */
    public record GapPage(List<Gap> items, int page, int size, long total) {
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Gaps, most frequent first, with the candidates matched to each")
    public Uni<GapPage> list(@QueryParam("page") @DefaultValue("0") int page,
            @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, PageLimit.MAX_PAGE_SIZE);
        return Panache.withSession(() -> GapEntity.<GapEntity>find("order by timesSeen desc, lastSeenAt desc")
                .page(Page.of(page, size)).list().chain(gaps -> GapEntity.count().chain(total -> {
                    List<String> verbs = gaps.stream().map(g -> g.normalizedVerb).toList();
                    if (verbs.isEmpty()) {
                        return Uni.createFrom().item(new GapPage(List.of(), page, size, total));
                    }
                    return GapMatchEntity.<GapMatchEntity>list("normalizedVerb in ?1 order by score desc", verbs)
                            .chain(matches -> {
                                List<UUID> ids = matches.stream().map(m -> m.candidateId).distinct().toList();
                                Uni<List<CandidateEntity>> candidates = ids.isEmpty() ? Uni.createFrom().item(List.of())
                                        : CandidateEntity.list("id in ?1", ids);
                                return candidates.chain(rows -> drafts(verbs).map(drafts -> {
                                    Map<UUID, CandidateEntity> byId = rows.stream()
                                            .collect(Collectors.toMap(r -> r.id, r -> r));
                                    Map<String, List<Match>> byVerb = new HashMap<>();
                                    for (GapMatchEntity m : matches) {
                                        CandidateEntity c = byId.get(m.candidateId);
                                        if (c != null) {
                                            byVerb.computeIfAbsent(m.normalizedVerb, k -> new ArrayList<>()).add(
                                                    new Match(c.id, c.toolId, c.name, c.status, m.score, m.confidence));
                                        }
                                    }
                                    return new GapPage(gaps.stream().map(g -> new Gap(g.normalizedVerb, g.actionVerb,
                                            g.description, g.timesSeen, g.firstSeenAt, g.lastSeenAt,
                                            byVerb.getOrDefault(g.normalizedVerb, List.of()),
                                            drafts.get(g.normalizedVerb))).toList(), page, size, total);
                                }));
                            });
                })));
    }

    /** The newest draft revision of each of {@code verbs} that has one. */
    private static Uni<Map<String, Draft>> drafts(List<String> verbs) {
        return CandidateEntity.<CandidateEntity>list("draftGap in ?1 order by revision", verbs).map(rows -> {
            Map<String, Draft> newest = new HashMap<>();
            rows.forEach(r -> newest.put(r.draftGap, new Draft(r.id, r.toolId, r.revision, r.status)));
            return newest;
        });
    }
}
