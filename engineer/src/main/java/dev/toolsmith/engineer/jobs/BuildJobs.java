package dev.toolsmith.engineer.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.engineer.verify.VerificationSuite;
import dev.toolsmith.engineer.wrapper.BuildResult;
import dev.toolsmith.engineer.wrapper.GeneratedWrapper;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * The build jobs' state changes, each in the caller's transaction. Finishing a job appends its
 * {@code plugin-built} event to the outbox in the same transaction, so the verdict and its announcement
 * commit together.
 */
@ApplicationScoped
public class BuildJobs {

    private final Outbox outbox;
    private final ObjectMapper mapper;

    public BuildJobs(Outbox outbox, ContractCodec codec) {
        this.outbox = outbox;
        this.mapper = codec.mapper();
    }

    /** Records a job for a new approval; false when this tool version already has one (a redelivery). */
    public Uni<Boolean> receive(ToolApproved approved) {
        return BuildJob.<BuildJob>find("toolId = ?1 and version = ?2", approved.toolId(), approved.version())
                .firstResult().chain(existing -> {
                    if (existing != null) {
                        return Uni.createFrom().item(false);
                    }
                    BuildJob job = new BuildJob();
                    job.id = UUID.randomUUID();
                    job.toolId = approved.toolId();
                    job.version = approved.version();
                    job.state = BuildState.RECEIVED;
                    job.approval = json(approved);
                    job.createdAt = now();
                    job.updatedAt = job.createdAt;
                    return job.persist().replaceWith(true);
                });
    }

    /** Jobs waiting to be built: new ones, and ones a crashed build left behind longer than {@code staleBefore}. */
    public Uni<List<UUID>> claimable(OffsetDateTime staleBefore, int limit) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT id FROM build_job WHERE state = 'RECEIVED' OR (state IN ('GENERATING', 'VERIFYING') "
                        + "AND updated_at < :stale) ORDER BY created_at LIMIT :limit", UUID.class)
                .setParameter("stale", staleBefore).setParameter("limit", limit).getResultList());
    }

    /** Takes the job for building (state GENERATING) unless another build took it first; null then. */
    public Uni<BuildJob> claim(UUID id, OffsetDateTime staleBefore) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE build_job SET state = 'GENERATING', attempts = attempts + 1, updated_at = :now WHERE id = :id "
                        + "AND (state = 'RECEIVED' OR (state IN ('GENERATING', 'VERIFYING') AND updated_at < :stale))")
                .setParameter("now", now()).setParameter("id", id).setParameter("stale", staleBefore).executeUpdate())
                .chain(updated -> updated == 1 ? BuildJob.<BuildJob>findById(id) : Uni.createFrom().nullItem());
    }

    /** Generation done: the plugin and its suite are stored, verification starts. */
    public Uni<Void> verifying(UUID id, GeneratedWrapper wrapper, VerificationSuite suite) {
        return BuildJob.<BuildJob>findById(id).invoke(job -> {
            job.state = BuildState.VERIFYING;
            job.plugin = json(wrapper.plugin());
            job.suite = json(suite);
            job.notes = json(wrapper.notes());
            job.updatedAt = now();
        }).replaceWithVoid();
    }

    /** The verdict: state, report and reason, and the plugin-built event, in one transaction. */
    public Uni<Void> finish(UUID id, ToolApproved approved, BuildResult result) {
        return BuildJob.<BuildJob>findById(id).chain(job -> {
            job.state = result.succeeded() ? BuildState.SUCCEEDED : BuildState.FAILED;
            job.report = result.report() == null ? null : json(result.report());
            job.failureReason = result.failureReason();
            if (result.wrapper() != null) {
                job.plugin = json(result.wrapper().plugin());
                job.notes = json(result.wrapper().notes());
            }
            if (result.suite() != null) {
                job.suite = json(result.suite());
            }
            job.updatedAt = now();
            VerificationReport report = result.report();
            PluginBuilt built = result.succeeded()
                    ? new PluginBuilt(approved.toolId(), approved.version(), true, result.wrapper().plugin(),
                            result.wrapper().policy(), report, null, approved.approval())
                    : new PluginBuilt(approved.toolId(), approved.version(), false, null, approved.policy(), report,
                            result.failureReason(), approved.approval());
            return outbox.append(Topics.PLUGIN_BUILT, approved.toolId(), built);
        }).replaceWithVoid();
    }

    /** Puts a failed job back in the queue; null when there is no such job, false when it is not failed. */
    public Uni<Boolean> retry(UUID id) {
        return BuildJob.<BuildJob>findById(id).map(job -> {
            if (job == null) {
                return null;
            }
            if (job.state != BuildState.FAILED) {
                return false;
            }
            job.state = BuildState.RECEIVED;
            job.report = null;
            job.failureReason = null;
            job.updatedAt = now();
            return true;
        });
    }

    public Uni<List<BuildJob>> page(BuildState state, String toolId, int page, int size) {
        Sort newestFirst = Sort.descending("updatedAt");
        return query(state, toolId, newestFirst).page(Page.of(page, size)).list();
    }

    public Uni<Long> count(BuildState state, String toolId) {
        return query(state, toolId, null).count();
    }

    private static io.quarkus.hibernate.reactive.panache.PanacheQuery<BuildJob> query(BuildState state, String toolId,
            Sort sort) {
        Sort order = sort == null ? Sort.by("id") : sort;
        if (state != null && toolId != null) {
            return BuildJob.find("state = ?1 and toolId = ?2", order, state, toolId);
        }
        if (state != null) {
            return BuildJob.find("state = ?1", order, state);
        }
        if (toolId != null) {
            return BuildJob.find("toolId = ?1", order, toolId);
        }
        return BuildJob.findAll(order);
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("contract records always serialise", e);
        }
    }

    static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
