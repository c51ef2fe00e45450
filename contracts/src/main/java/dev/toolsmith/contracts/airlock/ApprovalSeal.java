package dev.toolsmith.contracts.airlock;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The librarian's signed word that an admin approved exactly this: a tool id at a build version, the
 * call it makes ({@code callHash}: verb, risk, method, server, path and parameter placement), the health
 * probe it may send ({@code probeHash}, null when the approval gave none) and the usage policy it runs
 * under ({@code policyHash}). It travels on {@code tool-approved}, the engineer copies it unchanged onto
 * {@code plugin-built}, and the capabilities manager and the catalog accept a build only when the seal
 * verifies with the librarian's public key and matches the build (see {@link dev.toolsmith.contracts.build.ApprovalVerifier}). A
 * forged or replayed event therefore cannot register a tool, even from a client the broker lets write.
 * {@code manifestHash} is the content hash of the manifest as approved, for the audit trail.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApprovalSeal(
        String toolId,
        int version,
        String callHash,
        String probeHash,
        String policyHash,
        String manifestHash,
        String approvedBy,
        Instant approvedAt,
        String signature) {

    /** Bumped when the signed text changes shape, so an old signature never verifies a new meaning. */
    static final String SCHEME = "toolsmith-approval-seal/1";

    /**
     * The bytes that are signed: every field but the signature, each written as its length and its
     * text, so no choice of values (a newline in a name, say) can make two seals read the same.
     */
    @JsonIgnore
    public byte[] signedBytes() {
        StringBuilder text = new StringBuilder(SCHEME);
        for (String field : new String[] {toolId, Integer.toString(version), callHash, probeHash, policyHash,
                manifestHash, approvedBy, approvedAt == null ? null : approvedAt.toString()}) {
            text.append('|');
            if (field == null) {
                text.append('-');
            } else {
                text.append(field.length()).append(':').append(field);
            }
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    ApprovalSeal withSignature(String newSignature) {
        return new ApprovalSeal(toolId, version, callHash, probeHash, policyHash, manifestHash, approvedBy,
                approvedAt, newSignature);
    }
}
