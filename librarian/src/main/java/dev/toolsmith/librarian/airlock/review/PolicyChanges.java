package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.ApprovalSealing;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import dev.toolsmith.librarian.airlock.policy.PolicyRequest;
import dev.toolsmith.librarian.airlock.policy.PolicyRules;
import dev.toolsmith.librarian.airlock.policy.PolicyView;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * An admin changes the usage policy of an approved tool. The change is a new approval of the same
 * definition: the next build version of the tool id, the same manifest and risk, the new policy, sealed
 * with the librarian's key and published on {@code tool-approved} like any approval, so the capabilities
 * manager puts it in force only after verifying that seal (a forged change is refused exactly like a
 * forged approval) and refuses any replay of the older, looser approval. Audited as
 * {@code POLICY_CHANGED} with who and the policy before and after (secret names only). The rules are
 * the approve dialog's ({@link PolicyRules}); {@code secrets} left out keep the stored ones.
 */
@ApplicationScoped
public class PolicyChanges {

    /** Statuses whose policy can change: approved (building) or in service. */
    static final Set<CandidateStatus> CHANGEABLE = Set.of(CandidateStatus.APPROVED, CandidateStatus.ACTIVE);

    private final ReviewService review;
    private final ContractCodec codec;
    private final Outbox outbox;
    private final AuditLog audit;
    private final ApprovalSealing approvals;

    public PolicyChanges(ReviewService review, ContractCodec codec, Outbox outbox, AuditLog audit,
            ApprovalSealing approvals) {
        this.review = review;
        this.codec = codec;
        this.outbox = outbox;
        this.audit = audit;
        this.approvals = approvals;
    }

    public Uni<CandidateEntity> change(UUID id, PolicyRequest request, boolean acceptUnlimited, String actor) {
        PolicyRules.check(request);
        UsagePolicy requested = review.seal(request);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .chain(candidate -> {
                    changeable(candidate, id);
                    ToolManifest manifest = review.manifest(candidate);
                    Risk override = candidate.riskOverride == null ? null : Risk.valueOf(candidate.riskOverride);
                    PolicyRules.checkRisk(manifest.binding() == null ? null : manifest.binding().method(),
                            manifest.risk(), override, request, acceptUnlimited);
                    UsagePolicy old = candidate.policy == null ? UsagePolicy.unrestricted()
                            : review.readPolicy(candidate.policy);
                    UsagePolicy policy = request != null && request.secrets() == null
                            ? new UsagePolicy(requested.rateLimit(), requested.quota(), requested.budget(),
                                    requested.allowedCallers(), old.secrets())
                            : requested;
                    ReviewService.requireSecret(manifest, policy);
                    // the same policy again is a no-op, unless the last change failed to build (then it is the retry)
                    if (candidate.buildFailure == null && PolicyView.of(old).equals(PolicyView.of(policy))
                            && old.secrets().equals(policy.secrets())) {
                        throw new WebApplicationException("the policy of " + candidate.toolId
                                + " is already this one; nothing to change", Response.Status.CONFLICT);
                    }
                    return ReviewService.nextBuildVersion(candidate.toolId)
                            .chain(version -> publish(candidate, manifest, old, policy, version, actor, now));
                }));
    }

    private Uni<CandidateEntity> publish(CandidateEntity candidate, ToolManifest manifest, UsagePolicy old,
            UsagePolicy policy, int version, String actor, OffsetDateTime now) {
        Risk risk = Risk.valueOf(candidate.effectiveRisk());
        ToolManifest approved = new ToolManifest(manifest.id(), manifest.verb(), manifest.name(),
                manifest.description(), manifest.source(), manifest.namespace(), manifest.domain(), manifest.tags(),
                manifest.inputSchema(), manifest.outputSchema(), risk, manifest.binding(), manifest.healthProbe(),
                version, manifest.contentHash());
        int previousVersion = candidate.buildVersion == null ? 0 : candidate.buildVersion;
        candidate.buildVersion = version;
        candidate.policy = review.write(policy);
        candidate.updatedAt = now;
        ToolApproved event = new ToolApproved(candidate.toolId, version, approved, policy,
                candidate.operation == null ? null : review.read(candidate.operation),
                candidate.sourceId == null ? null : candidate.sourceId.toString(), actor, now.toInstant(),
                approvals.seal(approved, policy, version, actor, now.toInstant()));
        codec.validator().validate(MessageType.TOOL_APPROVED, codec.toJson(event));
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("approvalVersion", previousVersion);
        before.put("policy", PolicyView.of(old));
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("approvalVersion", version);
        after.put("policy", PolicyView.of(policy));
        return outbox.append(Topics.TOOL_APPROVED, candidate.toolId, event)
                .chain(() -> audit.record(actor, AuditLog.Action.POLICY_CHANGED, "tool", candidate.toolId,
                        "Policy of " + candidate.toolId + " changed (approval version " + previousVersion + " → "
                                + version + ")", before, after))
                .replaceWith(candidate);
    }

    private static void changeable(CandidateEntity candidate, UUID id) {
        if (candidate == null) {
            throw new NotFoundException("no pending tool " + id);
        }
        CandidateStatus status = CandidateStatus.valueOf(candidate.status);
        if (!CHANGEABLE.contains(status)) {
            throw new WebApplicationException("tool " + candidate.toolId + " (candidate " + id + ") is " + status
                    + "; only an APPROVED or ACTIVE tool's policy can be changed (a pending tool gets its policy"
                    + " when approved)", Response.Status.CONFLICT);
        }
    }
}
