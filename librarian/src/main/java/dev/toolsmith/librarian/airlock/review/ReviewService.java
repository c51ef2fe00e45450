package dev.toolsmith.librarian.airlock.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.AuthBinding;
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
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Admins' decisions on candidates. An approval encrypts the policy's secrets, stores the decision, audits
 * it (and a policy change against the previously approved revision) and publishes {@code tool-approved}
 * for the engineer with the dereferenced operation — all in one transaction through the outbox. A
 * rejection needs a reason. Only undecided candidates (pending, or back from a failed build) can be
 * decided; anything else is a 409.
 */
@ApplicationScoped
public class ReviewService {

    /** Why a find-or-build draft is never approved; shown as the draft's warning and as the refusal. */
    public static final String DRAFT_NOT_APPROVABLE = "an LLM draft from find-or-build: a specification of a missing tool,"
            + " with no HTTP binding, so no wrapper can be built from it. It cannot be approved: register a source"
            + " that offers the capability and approve that tool, or reject the draft";

    private final ContractCodec codec;
    private final ObjectMapper mapper;
    private final SecretSealer sealer;
    private final Outbox outbox;
    private final AuditLog audit;
    private final ApprovalSealing approvals;
    private final ApprovalCollisions collisions;

    public ReviewService(ContractCodec codec, SecretSealer sealer, Outbox outbox, AuditLog audit,
            ApprovalSealing approvals, ApprovalCollisions collisions) {
        this.codec = codec;
        this.mapper = codec.mapper();
        this.sealer = sealer;
        this.outbox = outbox;
        this.audit = audit;
        this.approvals = approvals;
        this.collisions = collisions;
    }

    /**
     * @param confirmReplace the id of the tool in service this approval replaces, which the admin confirms
     *        having reviewed (see {@link ApprovalCollisions}); null when it replaces none
     * @param acceptUnlimited the admin confirms that a tool which changes data may run without limits
     */
    public Uni<CandidateEntity> approve(UUID id, PolicyRequest request, String riskOverride, String confirmReplace,
            boolean acceptUnlimited, String actor) {
        Risk override = parseRisk(riskOverride);
        PolicyRules.check(request);
        UsagePolicy policy = seal(request);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .chain(candidate -> {
                    decidable(candidate, id);
                    buildable(candidate);
                    return nextBuildVersion(candidate.toolId).map(version -> {
                        candidate.buildVersion = version;
                        return candidate;
                    });
                })
                .call(candidate -> collisions.check(candidate, manifest(candidate), request != null, confirmReplace,
                        PolicyView.of(policy), actor))
                .chain(candidate -> {
                    ToolManifest manifest = manifest(candidate);
                    PolicyRules.checkRisk(manifest.binding() == null ? null : manifest.binding().method(),
                            manifest.risk(), override, request, acceptUnlimited);
                    requireSecret(manifest, policy);
                    Risk risk = override != null ? override : manifest.risk();
                    ToolManifest approved = new ToolManifest(manifest.id(), manifest.verb(), manifest.name(),
                            manifest.description(), manifest.source(), manifest.namespace(), manifest.domain(),
                            manifest.tags(), manifest.inputSchema(), manifest.outputSchema(), risk, manifest.binding(),
                            manifest.healthProbe(), candidate.buildVersion, manifest.contentHash());
                    String before = candidate.status;
                    candidate.status = CandidateStatus.APPROVED.name();
                    candidate.riskOverride = override == null ? null : override.name();
                    candidate.policy = write(policy);
                    candidate.decidedBy = actor;
                    candidate.decidedAt = now;
                    candidate.rejectReason = null;
                    candidate.updatedAt = now;
                    ToolApproved event = new ToolApproved(candidate.toolId, candidate.buildVersion, approved, policy,
                            candidate.operation == null ? null : read(candidate.operation), candidate.sourceId.toString(),
                            actor, now.toInstant(), approvals.seal(approved, policy, candidate.buildVersion, actor,
                                    now.toInstant()));
                    codec.validator().validate(MessageType.TOOL_APPROVED, codec.toJson(event));
                    Map<String, Object> after = new LinkedHashMap<>();
                    after.put("status", candidate.status);
                    after.put("risk", risk.name());
                    after.put("policy", PolicyView.of(policy));
                    return outbox.append(Topics.TOOL_APPROVED, candidate.toolId, event)
                            .chain(() -> audit.record(actor, AuditLog.Action.APPROVED, "candidate", id.toString(),
                                    "Approved " + candidate.toolId + " (revision " + candidate.revision + ", "
                                            + candidate.operationKey + ") as " + risk.name(),
                                    Map.of("status", before, "risk", candidate.risk), after))
                            .chain(() -> auditPolicyChange(candidate, policy, actor))
                            .replaceWith(candidate);
                }));
    }

    /**
     * One more than any earlier approval of {@code toolId}, from any source. The transaction-scoped
     * advisory lock makes concurrent approvals of the same tool id take distinct versions.
     */
    static Uni<Integer> nextBuildVersion(String toolId) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT 1 FROM pg_advisory_xact_lock(hashtext(:tool))", Integer.class)
                .setParameter("tool", toolId).getSingleResult()
                .chain(locked -> session.createNativeQuery(
                        "SELECT COALESCE(MAX(build_version), 0) + 1 FROM airlock_candidate WHERE tool_id = :tool",
                        Integer.class).setParameter("tool", toolId).getSingleResult()));
    }

    public Uni<CandidateEntity> reject(UUID id, String reason, String actor) {
        String why = reason == null ? "" : reason.trim();
        if (why.isEmpty()) {
            throw new IllegalArgumentException("reason: a rejection needs a reason");
        }
        if (why.length() > 2000) {
            throw new IllegalArgumentException("reason: longer than 2000 characters");
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return Panache.withTransaction(() -> CandidateEntity.<CandidateEntity>findById(id, LockModeType.PESSIMISTIC_WRITE)
                .chain(candidate -> {
                    decidable(candidate, id);
                    String before = candidate.status;
                    candidate.status = CandidateStatus.REJECTED.name();
                    candidate.rejectReason = why;
                    candidate.decidedBy = actor;
                    candidate.decidedAt = now;
                    candidate.updatedAt = now;
                    return audit.record(actor, AuditLog.Action.REJECTED, "candidate", id.toString(),
                            "Rejected " + candidate.toolId + " (revision " + candidate.revision + "): " + why,
                            Map.of("status", before), Map.of("status", candidate.status, "reason", why))
                            .replaceWith(candidate);
                }));
    }

    /** A changed tool approved with a different policy than its previous approved revision: say so. */
    private Uni<Void> auditPolicyChange(CandidateEntity candidate, UsagePolicy policy, String actor) {
        return CandidateEntity.<CandidateEntity>find("sourceId = ?1 and operationKey = ?2 and revision < ?3"
                + " and policy is not null order by revision desc", candidate.sourceId, candidate.operationKey,
                candidate.revision).firstResult().chain(previous -> {
                    if (previous == null) {
                        return Uni.createFrom().voidItem();
                    }
                    UsagePolicy old = readPolicy(previous.policy);
                    PolicyView before = PolicyView.of(old);
                    PolicyView after = PolicyView.of(policy);
                    if (Objects.equals(before, after) && old.secrets().equals(policy.secrets())) {
                        return Uni.createFrom().voidItem();
                    }
                    return audit.record(actor, AuditLog.Action.POLICY_CHANGED, "tool", candidate.toolId,
                            "Policy of " + candidate.toolId + " changed with revision " + candidate.revision,
                            before, after);
                });
    }

    UsagePolicy seal(PolicyRequest request) {
        if (request == null) {
            return UsagePolicy.unrestricted();
        }
        UsagePolicy policy = new UsagePolicy(request.rateLimit(), request.quota(), request.budget(),
                request.allowedCallers(), sealer.seal(request.secrets()));
        try {
            codec.validator().validate(MessageType.USAGE_POLICY, codec.toJson(policy));
        } catch (dev.toolsmith.contracts.event.ContractViolation violation) {
            throw new dev.toolsmith.contracts.event.ContractViolation("/policy" + violation.pointer(),
                    violation.getMessage().replaceFirst("^field /", "field /policy/")
                            .replaceFirst("^the document", "field /policy"));
        }
        return policy;
    }

    static void requireSecret(ToolManifest manifest, UsagePolicy policy) {
        if (manifest.binding() == null) {
            return;
        }
        AuthBinding auth = manifest.binding().auth();
        if (auth.scheme() != AuthBinding.Scheme.NONE && auth.secretName() != null
                && !policy.secrets().containsKey(auth.secretName())) {
            throw new IllegalArgumentException("policy.secrets: the tool authenticates with "
                    + auth.scheme().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " secret '" + auth.secretName()
                    + "'; provide it in policy.secrets");
        }
    }

    private static void decidable(CandidateEntity candidate, UUID id) {
        if (candidate == null) {
            throw new NotFoundException("no pending tool " + id);
        }
        CandidateStatus status = CandidateStatus.valueOf(candidate.status);
        if (!CandidateStatus.DECIDABLE.contains(status)) {
            throw new WebApplicationException("pending tool " + id + " is " + status
                    + "; only PENDING or BUILD_FAILED tools can be approved or rejected", Response.Status.CONFLICT);
        }
    }

    /**
     * The engineer builds only wrapped HTTP tools: approving a candidate without a binding (an LLM draft,
     * or a source's manifest that names no HTTP operation) would start a build that cannot succeed.
     */
    private void buildable(CandidateEntity candidate) {
        if (candidate.isDraft()) {
            throw new WebApplicationException("pending tool " + candidate.id + " is " + DRAFT_NOT_APPROVABLE
                    + " (capability gap '" + candidate.draftGap + "')", Response.Status.CONFLICT);
        }
        if (manifest(candidate).binding() == null) {
            throw new WebApplicationException("pending tool " + candidate.id + " (" + candidate.toolId + ") has no HTTP"
                    + " binding; the engineer builds only wrapped HTTP tools, so it cannot be approved",
                    Response.Status.CONFLICT);
        }
    }

    static Risk parseRisk(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Risk.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("riskOverride: '" + text
                    + "' is not one of READ_ONLY, WRITE_LOCAL, WRITE_REMOTE, DESTRUCTIVE");
        }
    }

    ToolManifest manifest(CandidateEntity candidate) {
        try {
            return mapper.readValue(candidate.manifest, ToolManifest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored manifest of " + candidate.id + " is unreadable", e);
        }
    }

    UsagePolicy readPolicy(String json) {
        try {
            return mapper.readValue(json, UsagePolicy.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored policy is unreadable", e);
        }
    }

    JsonNode read(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
