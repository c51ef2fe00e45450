package dev.toolsmith.contracts.step;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.crypto.spec.SecretKeySpec;

/**
 * A planner's side of {@link PlanStepSignature}: signs each {@code plan-steps} record it produces with its
 * API key. Thread-safe; build one per planner and keep it (the key is derived once).
 *
 * <pre>{@code
 * PlanStepSigner signer = PlanStepSigner.of("planner", apiKey);
 * byte[] value = codec.serialize(codec.envelope(step, "/my-planner", step.planId()));
 * ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.PLAN_STEPS, step.planId(), value);
 * signer.headers(value).forEach(record.headers()::add);
 * }</pre>
 */
public final class PlanStepSigner {

    private final String caller;
    private final byte[] callerBytes;
    private final SecretKeySpec key;

    private PlanStepSigner(String caller, SecretKeySpec key) {
        this.caller = caller;
        this.callerBytes = caller.getBytes(StandardCharsets.UTF_8);
        this.key = key;
    }

    /**
     * @param caller the name the API key is configured under ({@code toolsmith.security.api-keys.<caller>})
     * @param apiKey the API key itself, as sent in {@code X-API-Key}
     */
    public static PlanStepSigner of(String caller, String apiKey) {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(apiKey, "apiKey");
        if (caller.isBlank() || apiKey.isEmpty()) {
            throw new IllegalArgumentException("a plan step is signed by a named caller with its API key");
        }
        return new PlanStepSigner(caller, PlanStepSignature.macKey(PlanStepSignature.sha256(apiKey)));
    }

    public String caller() {
        return caller;
    }

    /** The {@value PlanStepSignature#SIGNATURE_HEADER} value for a record value of exactly these bytes. */
    public String sign(byte[] value) {
        return PlanStepSignature.SCHEME + HexFormat.of().formatHex(PlanStepSignature.mac(key, value));
    }

    /** Both headers, in the order to add them, as the UTF-8 bytes Kafka headers carry. */
    public Map<String, byte[]> headers(byte[] value) {
        Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put(PlanStepSignature.CALLER_HEADER, callerBytes.clone());
        headers.put(PlanStepSignature.SIGNATURE_HEADER, sign(value).getBytes(StandardCharsets.UTF_8));
        return headers;
    }
}
