package dev.toolsmith.contracts.airlock;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/** Seals approvals with the librarian's Ed25519 private key; only the librarian holds one. */
public final class ApprovalSigner {

    private final PrivateKey key;

    private ApprovalSigner(PrivateKey key) {
        this.key = key;
    }

    /** @param setting the configuration key the value came from, named in the error when it is no key */
    public static ApprovalSigner fromBase64(String pkcs8, String setting) {
        return new ApprovalSigner(ApprovalKeys.privateKey(pkcs8, setting));
    }

    public ApprovalSeal seal(ToolManifest approved, UsagePolicy policy, int version, String approvedBy,
            Instant approvedAt, ObjectMapper mapper) {
        ApprovalSeal unsigned = new ApprovalSeal(approved.id(), version, ApprovalFingerprints.call(approved, mapper),
                ApprovalFingerprints.probe(approved, mapper), ApprovalFingerprints.policy(policy, mapper),
                ContentHash.of(approved, mapper), approvedBy, approvedAt, null);
        try {
            Signature signer = Signature.getInstance(ApprovalKeys.ALGORITHM);
            signer.initSign(key);
            signer.update(unsigned.signedBytes());
            return unsigned.withSignature(Base64.getEncoder().encodeToString(signer.sign()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("signing an approval with Ed25519 failed", e);
        }
    }
}
