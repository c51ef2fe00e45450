package dev.toolsmith.contracts.step;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signed envelope of a {@code plan-steps} record: who sends a step is not a field the sender writes but
 * two Kafka record headers the capabilities manager verifies.
 * <ul>
 * <li>{@value #CALLER_HEADER}: the caller's name, as configured in {@code toolsmith.security.api-keys.<caller>}
 * (UTF-8);</li>
 * <li>{@value #SIGNATURE_HEADER}: {@code sha256=} followed by the lowercase hex of HMAC-SHA256 over the record
 * value's bytes exactly as sent (the CloudEvents envelope), keyed with the 32 raw bytes of SHA-256 of the
 * caller's API key.</li>
 * </ul>
 * The key is the hash of the API key because the services keep only those hashes (never a usable API key),
 * so a planner signs with the key it already holds and nothing new is distributed. The caller header is
 * bound by the key (a different name selects a different key), and the topic by the envelope's
 * {@code type} ({@code dev.toolsmith.plan-step}), which the consumer checks. A record replayed unchanged is
 * the same step id of the same caller: it gets the stored result and does not run again.
 */
public final class PlanStepSignature {

    public static final String CALLER_HEADER = "toolsmith-caller";
    public static final String SIGNATURE_HEADER = "toolsmith-signature";
    /** The prefix of a signature header's value: the scheme, so another can follow without ambiguity. */
    static final String SCHEME = "sha256=";
    static final int MAC_BYTES = 32;

    private static final String HMAC = "HmacSHA256";
    /** A Mac is not thread-safe and costs a provider look-up to get: one per thread, keyed per use. */
    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance(HMAC);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships " + HMAC, e);
        }
    });

    private PlanStepSignature() {
    }

    /** The MAC key of a caller whose API key hashes to {@code keySha256} (32 bytes). */
    static SecretKeySpec macKey(byte[] keySha256) {
        if (keySha256.length != MAC_BYTES) {
            throw new IllegalArgumentException("an API key's SHA-256 has 32 bytes, not " + keySha256.length);
        }
        return new SecretKeySpec(keySha256, HMAC);
    }

    /** SHA-256 of an API key: what the services keep of it, and the key a planner signs with. */
    static byte[] sha256(String apiKey) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(apiKey.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }

    static byte[] mac(SecretKeySpec key, byte[] value) {
        Mac mac = MACS.get();
        try {
            mac.init(key);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("an HMAC-SHA256 key of 32 bytes is always valid", e);
        }
        return mac.doFinal(value);
    }
}
