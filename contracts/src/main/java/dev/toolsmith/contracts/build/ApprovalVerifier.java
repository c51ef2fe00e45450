package dev.toolsmith.contracts.build;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ApprovalFingerprints;
import dev.toolsmith.contracts.airlock.ApprovalKeys;
import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Optional;

/**
 * Decides whether a built plugin is the one an admin approved: its {@link ApprovalSeal} must verify with
 * the librarian's public key and name this tool id, this version, this call, this health probe and this
 * usage policy. Everything else about the build may differ (see {@link ApprovalFingerprints}).
 */
public final class ApprovalVerifier {

    private final PublicKey key;

    private ApprovalVerifier(PublicKey key) {
        this.key = key;
    }

    /** @param setting the configuration key the value came from, named in the error when it is no key */
    public static ApprovalVerifier fromBase64(String x509, String setting) {
        return new ApprovalVerifier(ApprovalKeys.publicKey(x509, setting));
    }

    /**
     * Why {@code built} must not be registered (or, failed, not be taken as the verdict on an approval);
     * empty when its seal verifies and matches it.
     */
    public Optional<String> refusal(PluginBuilt built, ObjectMapper mapper) {
        ApprovalSeal seal = built.approval();
        ToolManifest plugin = built.plugin();
        if (seal == null) {
            return Optional.of("carries no approval seal: only builds of tools an admin approved are registered");
        }
        if (!signatureValid(seal)) {
            return Optional.of("its approval seal does not verify with the librarian's key (forged or altered)");
        }
        if (!seal.toolId().equals(built.toolId())) {
            return Optional.of("its approval seal is for tool " + seal.toolId() + ", not " + built.toolId());
        }
        if (seal.version() != built.version()) {
            return Optional.of("its approval seal is for version " + seal.version() + ", not " + built.version());
        }
        if (!built.succeeded()) {
            return Optional.empty(); // a failed build registers nothing: it need only be of this approval
        }
        if (plugin == null || !seal.toolId().equals(plugin.id())) {
            return Optional.of("its approval seal is for tool " + seal.toolId() + ", not the plugin "
                    + (plugin == null ? "it lacks" : plugin.id()));
        }
        // each hash is recomputed in the version it names, so seals signed before a new hash version still verify
        for (String hash : new String[] {seal.callHash(), seal.probeHash(), seal.policyHash(), seal.manifestHash()}) {
            if (hash != null && ContentHash.Version.of(hash).isEmpty()) {
                return Optional.of("its approval seal names a hash version this service does not know");
            }
        }
        if (!ApprovalFingerprints.callMatches(seal.callHash(), plugin, mapper)) {
            return Optional.of("its call (verb, risk, method, server, path or parameters) is not the approved one");
        }
        if (!ApprovalFingerprints.probeMatches(seal.probeHash(), plugin, mapper)) {
            return Optional.of("its health probe is not the approved one");
        }
        if (!ApprovalFingerprints.policyMatches(seal.policyHash(), built.policy(), mapper)) {
            return Optional.of("its usage policy is not the approved one");
        }
        return Optional.empty();
    }

    public boolean signatureValid(ApprovalSeal seal) {
        if (seal.signature() == null) {
            return false;
        }
        try {
            Signature verifier = Signature.getInstance(ApprovalKeys.ALGORITHM);
            verifier.initVerify(key);
            verifier.update(seal.signedBytes());
            return verifier.verify(Base64.getDecoder().decode(seal.signature()));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false; // not base64 or not a signature: the same verdict as a wrong one
        }
    }
}
