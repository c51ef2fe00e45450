package dev.toolsmith.contracts.step;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;

/**
 * The capabilities manager's side of {@link PlanStepSignature}: who sent a {@code plan-steps} record, or why
 * it cannot be told. Built once from the callers allowed to send steps and the SHA-256 of each one's API key
 * (the MAC keys are derived then, not per record); thread-safe.
 */
public final class PlanStepVerifier {

    /** Longest caller name quoted back in a refusal; a header can be anything. */
    private static final int QUOTED = 64;

    private final Map<String, SecretKeySpec> keys;

    private PlanStepVerifier(Map<String, SecretKeySpec> keys) {
        this.keys = keys;
    }

    /** @param keySha256ByCaller each caller allowed to send steps, with the 32-byte SHA-256 of its API key */
    public static PlanStepVerifier of(Map<String, byte[]> keySha256ByCaller) {
        Map<String, SecretKeySpec> keys = new HashMap<>();
        keySha256ByCaller.forEach((caller, hash) -> keys.put(caller, PlanStepSignature.macKey(hash)));
        return new PlanStepVerifier(Map.copyOf(keys));
    }

    /** What a record's headers say about its sender. */
    public sealed interface Verdict permits Authenticated, Refused {
    }

    /** The record was signed by {@code caller}'s API key: the step runs as {@code caller}. */
    public record Authenticated(String caller) implements Verdict {
    }

    /** The record must not run; {@code reason} says why (it never holds key material). */
    public record Refused(String reason) implements Verdict {
    }

    /**
     * @param callerHeader the {@value PlanStepSignature#CALLER_HEADER} header's value, null when absent
     * @param signatureHeader the {@value PlanStepSignature#SIGNATURE_HEADER} header's value, null when absent
     * @param value the record value, exactly as received
     */
    public Verdict verify(byte[] callerHeader, byte[] signatureHeader, byte[] value) {
        if (callerHeader == null || signatureHeader == null) {
            return new Refused("unsigned plan step: a plan-steps record needs the headers " + PlanStepSignature.CALLER_HEADER
                    + " and " + PlanStepSignature.SIGNATURE_HEADER + " (docs/events.md, \"Signing a plan step\")"
                    + (callerHeader == null ? "" : "; it has no " + PlanStepSignature.SIGNATURE_HEADER));
        }
        String caller = new String(callerHeader, StandardCharsets.UTF_8);
        SecretKeySpec key = keys.get(caller);
        if (key == null) {
            return new Refused("caller '" + quoted(caller) + "' may not send plan steps: no API key with role planner,"
                    + " service or admin is configured under that name");
        }
        byte[] presented = decode(new String(signatureHeader, StandardCharsets.UTF_8));
        if (presented == null) {
            return new Refused("malformed " + PlanStepSignature.SIGNATURE_HEADER + ": expected " + PlanStepSignature.SCHEME
                    + " and 64 hex digits");
        }
        byte[] expected = PlanStepSignature.mac(key, value == null ? new byte[0] : value);
        if (!MessageDigest.isEqual(expected, presented)) { // constant time
            return new Refused("the signature does not match: the record was not signed with the API key of caller '"
                    + quoted(caller) + "', or was changed after signing");
        }
        return new Authenticated(caller);
    }

    private static byte[] decode(String header) {
        String hex = header.trim();
        if (!hex.startsWith(PlanStepSignature.SCHEME)
                || hex.length() != PlanStepSignature.SCHEME.length() + 2 * PlanStepSignature.MAC_BYTES) {
            return null;
        }
        try {
            return HexFormat.of().parseHex(hex, PlanStepSignature.SCHEME.length(), hex.length());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String quoted(String caller) {
        String printable = caller.codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return printable.length() <= QUOTED ? printable : printable.substring(0, QUOTED) + "…";
    }
}
