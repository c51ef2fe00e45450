package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.policy.PolicyView;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an approval must settle about the tools in service it collides with ({@link ToolCollisions}),
 * inside the approval's transaction: a REFUSED collision refuses it (409 with the reason); a REPLACES
 * collision needs the admin's explicit {@code confirmReplace} naming the tool replaced (else 409 naming
 * it and its source) and a stated policy (else 400), and is audited as {@code REPLACED} with the old and
 * the new source, risk and policy. Approvals of one verb take turns (an advisory lock, as approvals of
 * one tool id already do), so two tools cannot both pass the check for the same verb.
 */
@ApplicationScoped
public class ApprovalCollisions {

    private final ToolCollisions collisions;
    private final AuditLog audit;

    public ApprovalCollisions(ToolCollisions collisions, AuditLog audit) {
        this.collisions = collisions;
        this.audit = audit;
    }

    /**
     * @param policyStated whether the approval carried a policy (a replacement must)
     * @param confirmReplace the tool id the admin confirmed replacing, or null
     * @param newPolicy the policy being approved, as the audit shows it
     */
    public Uni<Void> check(CandidateEntity candidate, ToolManifest manifest, boolean policyStated, String confirmReplace,
            PolicyView newPolicy, String actor) {
        return lockVerb(manifest.verb()).chain(() -> collisions.of(candidate, manifest)).chain(found -> {
            String pending = "pending tool " + candidate.id + " (" + candidate.toolId + ")";
            for (CandidateViews.Collision c : found) {
                if (ToolCollisions.Kind.REFUSED.name().equals(c.kind())) {
                    throw new WebApplicationException(pending + " cannot be approved: " + c.message()
                            + ". Reject it instead", Response.Status.CONFLICT);
                }
            }
            List<CandidateViews.Collision> replaced = found.stream()
                    .filter(c -> ToolCollisions.Kind.REPLACES.name().equals(c.kind())).toList();
            String confirmed = confirmReplace == null || confirmReplace.isBlank() ? null : confirmReplace.strip();
            if (replaced.isEmpty()) {
                if (confirmed != null) {
                    throw new WebApplicationException("confirmReplace: '" + confirmed + "' is not a tool this approval"
                            + " replaces (" + pending + " replaces none); approve without confirmReplace",
                            Response.Status.CONFLICT);
                }
                return Uni.createFrom().voidItem();
            }
            CandidateViews.Collision replacing = replaced.get(0); // one tool id: at most one tool in service
            if (!replacing.toolId().equals(confirmed)) {
                throw new WebApplicationException(pending + " replaces " + replacing.toolId() + " from "
                        + replacing.source() + (replacing.operationKey() == null ? "" : " (" + replacing.operationKey()
                                + ")") + (confirmed == null ? "" : ", not '" + confirmed + "'")
                        + ": review the diff (GET /tools/pending/" + candidate.id + ", collisions) and approve with"
                        + " \"confirmReplace\": \"" + replacing.toolId() + "\"", Response.Status.CONFLICT);
            }
            if (!policyStated) {
                throw new IllegalArgumentException("policy: approving " + candidate.toolId + " replaces the tool from "
                        + replacing.source() + " and its policy (" + describe(replacing.activePolicy())
                        + "); state the policy the replacement runs under ({} for none)");
            }
            return audit.record(actor, AuditLog.Action.REPLACED, "tool", replacing.toolId(), "Approved "
                    + candidate.toolId + " from " + candidate.operationKey + " (pending tool " + candidate.id
                    + ") in place of the tool from " + replacing.source(), state(replacing.source(),
                            replacing.operationKey(), replacing.activeRisk(), replacing.activePolicy()),
                    // the decided risk of the replacement is in the APPROVED entry written with it
                    state(null, candidate.operationKey, null, newPolicy));
        });
    }

    private static Map<String, Object> state(String source, String operationKey, String risk, PolicyView policy) {
        Map<String, Object> state = new LinkedHashMap<>();
        if (source != null) {
            state.put("source", source);
        }
        state.put("operationKey", operationKey);
        if (risk != null) {
            state.put("risk", risk);
        }
        state.put("policy", policy);
        return state;
    }

    private static String describe(PolicyView policy) {
        if (policy == null) {
            return "none recorded";
        }
        StringBuilder text = new StringBuilder();
        if (policy.rateLimit() != null) {
            text.append("rate limit, ");
        }
        if (policy.quota() != null) {
            text.append("quota, ");
        }
        if (policy.budget() != null) {
            text.append("budget ").append(policy.budget().hardLimit() == null ? "" : policy.budget().hardLimit().toPlainString() + " ")
                    .append(policy.budget().currency()).append(", ");
        }
        text.append(policy.allowedCallers() == null || policy.allowedCallers().isEmpty() ? "every caller"
                : "allowed callers " + String.join(", ", policy.allowedCallers()));
        return text.toString();
    }

    private static Uni<Void> lockVerb(String verb) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT 1 FROM pg_advisory_xact_lock(hashtext('verb:' || upper(:verb)))", Integer.class)
                .setParameter("verb", verb).getSingleResult()).replaceWithVoid();
    }
}
