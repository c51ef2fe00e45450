package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.eventing.IdempotentConsumer;
import dev.toolsmith.librarian.airlock.candidate.ApprovalSealing;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.notification.Notifier;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The engineer's verdict on an approved candidate ({@code plugin-built}, matched by tool id and build
 * version): success makes it ACTIVE (and every earlier approval of the tool id SUPERSEDED), a failure puts it back in the queue as BUILD_FAILED with the
 * report and notifies admins. Events for tools the airlock did not approve are ignored, and so is a verdict
 * without the valid seal of the approval it claims to answer (the catalog's listener audits those).
 */
@ApplicationScoped
public class BuildOutcomeListener {

    static final String CONSUMER = "librarian-airlock-plugin-built";

    private final IdempotentConsumer consumer;
    private final ContractCodec codec;
    private final Notifier notifier;
    private final ApprovalSealing approvals;

    public BuildOutcomeListener(IdempotentConsumer consumer, ContractCodec codec, Notifier notifier,
            ApprovalSealing approvals) {
        this.consumer = consumer;
        this.codec = codec;
        this.notifier = notifier;
        this.approvals = approvals;
    }

    @Incoming("airlock-plugin-built-in")
    public Uni<Void> onBuilt(byte[] raw) {
        return consumer.apply(CONSUMER, raw, PluginBuilt.class, (envelope, built) -> CandidateEntity
                .<CandidateEntity>find("toolId = ?1 and buildVersion = ?2 and status in ('APPROVED', 'BUILD_FAILED', 'ACTIVE')",
                        built.toolId(), built.version())
                .firstResult().chain(candidate -> {
                    if (candidate == null || approvals.refusal(built).isPresent()) {
                        return Uni.createFrom().voidItem();
                    }
                    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                    candidate.buildReport = built.report() == null ? null : codec.toJson(built.report()).toString();
                    candidate.updatedAt = now;
                    if (built.succeeded()) {
                        candidate.status = CandidateStatus.ACTIVE.name();
                        candidate.buildFailure = null;
                        // The tool id now runs this build: every earlier approval of it, from any source, is replaced.
                        return CandidateEntity.update("status = 'SUPERSEDED', updatedAt = ?1 where toolId = ?2"
                                + " and buildVersion < ?3 and status in ('ACTIVE', 'APPROVED')",
                                now, candidate.toolId, candidate.buildVersion).replaceWithVoid();
                    }
                    if (CandidateStatus.ACTIVE.name().equals(candidate.status)) {
                        // A policy change of a tool in service (PolicyChanges) failed to build: the earlier build
                        // keeps running under its own sealed policy, so the tool stays ACTIVE; the admins are told.
                        candidate.buildFailure = built.failureReason() == null ? "the build failed without a reason"
                                : built.failureReason();
                        return notifier.raise(Notification.Kind.BUILD_FAILED, Notification.Severity.WARNING,
                                "The policy change of " + candidate.toolId + " is not in force", candidate.buildFailure
                                        + " The tool keeps running under its previous policy; change the policy again"
                                        + " to retry.", candidate.id.toString());
                    }
                    candidate.status = CandidateStatus.BUILD_FAILED.name();
                    candidate.buildFailure = built.failureReason() == null ? "the build failed without a reason"
                            : built.failureReason();
                    return notifier.raise(Notification.Kind.BUILD_FAILED, Notification.Severity.WARNING,
                            "Building " + candidate.toolId + " failed", candidate.buildFailure
                                    + " It is back in the review queue with its report.",
                            candidate.id.toString());
                }));
    }
}
