package dev.toolsmith.librarian.airlock.candidate;

import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.airlock.ApprovalSigner;
import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The librarian's approval seals: it signs every approval it publishes on {@code tool-approved} and,
 * as the catalog's gatekeeper, accepts on {@code plugin-built} only builds that carry the seal of one.
 * Both keys are read at start, so a missing or malformed key stops the service with the setting's name
 * instead of failing the first approval.
 */
@Startup
@Singleton
public class ApprovalSealing {

    static final String SIGNING_KEY = "toolsmith.approvals.signing-key";
    static final String VERIFY_KEY = "toolsmith.approvals.verify-key";

    private final ApprovalSigner signer;
    private final ApprovalVerifier verifier;
    private final ContractCodec codec;

    public ApprovalSealing(@ConfigProperty(name = SIGNING_KEY, defaultValue = " ") String signingKey,
            @ConfigProperty(name = VERIFY_KEY, defaultValue = " ") String verifyKey, ContractCodec codec) {
        this.signer = ApprovalSigner.fromBase64(signingKey, SIGNING_KEY + " (TOOLSMITH_APPROVALS_SIGNING_KEY)");
        this.verifier = ApprovalVerifier.fromBase64(verifyKey, VERIFY_KEY + " (TOOLSMITH_APPROVALS_VERIFY_KEY)");
        this.codec = codec;
    }

    public ApprovalSeal seal(ToolManifest approved, UsagePolicy policy, int version, String approvedBy,
            Instant approvedAt) {
        return signer.seal(approved, policy, version, approvedBy, approvedAt, codec.mapper());
    }

    /** Why a successful build must not be catalogued; empty when it carries its approval's valid seal. */
    public Optional<String> refusal(PluginBuilt built) {
        return verifier.refusal(built, codec.mapper());
    }

    /**
     * Why a validly sealed build must still not be catalogued: a later approval of the same tool exists, so this
     * is a replayed build of an older one (it would bring back that approval's content and callers). Call inside
     * a session.
     */
    public Uni<Optional<String>> superseded(PluginBuilt built) {
        return CandidateEntity.count("toolId = ?1 and buildVersion > ?2 and status in ('APPROVED', 'ACTIVE', "
                + "'BUILD_FAILED')", built.toolId(), built.version())
                .map(later -> later == 0 ? Optional.<String>empty()
                        : Optional.of("is a build of approval version " + built.version()
                                + ", and a later approval of " + built.toolId() + " exists (a replayed event)"));
    }
}
