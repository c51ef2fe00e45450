package dev.toolsmith.contracts.step;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A plan step's signed envelope: what verifies, and every way a record can be tampered with. */
class PlanStepSignatureTest {

    private static final byte[] VALUE = "{\"specversion\":\"1.0\",\"type\":\"dev.toolsmith.plan-step\",\"data\":{\"stepId\":\"s1\"}}"
            .getBytes(StandardCharsets.UTF_8);

    private final PlanStepSigner planner = PlanStepSigner.of("planner-a", "planner-a-key");
    private final PlanStepVerifier verifier = PlanStepVerifier.of(Map.of(
            "planner-a", sha256("planner-a-key"),
            "planner-b", sha256("planner-b-key")));

    @Test
    void aRecordSignedWithTheCallersApiKeyVerifiesAsThatCaller() {
        Map<String, byte[]> headers = planner.headers(VALUE);

        assertThat(headers).containsOnlyKeys(PlanStepSignature.CALLER_HEADER, PlanStepSignature.SIGNATURE_HEADER);
        assertThat(verify(headers, VALUE)).isEqualTo(new PlanStepVerifier.Authenticated("planner-a"));
    }

    @Test
    void theSignatureIsHmacSha256OverTheValueKeyedWithTheSha256OfTheApiKey() throws Exception {
        // what a planner in another language computes: documented in docs/events.md
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(sha256("planner-a-key"), "HmacSHA256"));
        String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal(VALUE));

        assertThat(planner.sign(VALUE)).isEqualTo(expected);
        // upper-case hex is the same signature
        assertThat(verifier.verify(bytes("planner-a"), bytes("sha256=" + expected.substring(7).toUpperCase()), VALUE))
                .isInstanceOf(PlanStepVerifier.Authenticated.class);
    }

    @Test
    void aChangedValueIsRefused() {
        Map<String, byte[]> headers = planner.headers(VALUE);
        byte[] changed = new String(VALUE, StandardCharsets.UTF_8).replace("s1", "s2").getBytes(StandardCharsets.UTF_8);

        assertThat(refusal(verify(headers, changed))).contains("does not match", "changed after signing");
    }

    @Test
    void aRecordSignedWithAnotherKeyIsRefused() {
        // planner-b's key, claiming to be planner-a
        byte[] forged = bytes(PlanStepSigner.of("planner-a", "planner-b-key").sign(VALUE));
        assertThat(refusal(verifier.verify(bytes("planner-a"), forged, VALUE))).contains("does not match", "'planner-a'");

        // planner-a's valid signature relabelled as planner-b
        byte[] genuine = bytes(planner.sign(VALUE));
        assertThat(verifier.verify(bytes("planner-b"), genuine, VALUE)).isInstanceOf(PlanStepVerifier.Refused.class);
    }

    @Test
    void anUnknownCallerIsRefusedWhateverItSigns() {
        PlanStepSigner stranger = PlanStepSigner.of("mallory", "mallory-key");

        assertThat(refusal(verify(stranger.headers(VALUE), VALUE))).contains("caller 'mallory' may not send plan steps");
    }

    @Test
    void aMissingHeaderIsRefusedAsUnsigned() {
        byte[] signature = bytes(planner.sign(VALUE));

        assertThat(refusal(verifier.verify(null, null, VALUE))).startsWith("unsigned plan step");
        assertThat(refusal(verifier.verify(bytes("planner-a"), null, VALUE))).startsWith("unsigned plan step")
                .contains("no toolsmith-signature");
        assertThat(refusal(verifier.verify(null, signature, VALUE))).startsWith("unsigned plan step");
    }

    @Test
    void aMalformedSignatureIsRefusedWithoutComparing() {
        String good = planner.sign(VALUE);

        assertThat(refusal(verifier.verify(bytes("planner-a"), bytes(good.substring(7)), VALUE))).startsWith("malformed");
        assertThat(refusal(verifier.verify(bytes("planner-a"), bytes(good + "00"), VALUE))).startsWith("malformed");
        assertThat(refusal(verifier.verify(bytes("planner-a"), bytes("sha256=" + "zz".repeat(32)), VALUE)))
                .startsWith("malformed");
        assertThat(refusal(verifier.verify(bytes("planner-a"), bytes(""), VALUE))).startsWith("malformed");
    }

    @Test
    void aRefusalQuotesAHostileCallerNameHarmlessly() {
        String name = "evil\nname" + "x".repeat(200);

        assertThat(refusal(verifier.verify(bytes(name), bytes(planner.sign(VALUE)), VALUE)))
                .doesNotContain("\n").hasSizeLessThan(250);
    }

    @Test
    void signersNeedANameAndAKey() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanStepSigner.of(" ", "k"))
                .isInstanceOf(IllegalArgumentException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PlanStepSigner.of("planner-a", ""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private PlanStepVerifier.Verdict verify(Map<String, byte[]> headers, byte[] value) {
        return verifier.verify(headers.get(PlanStepSignature.CALLER_HEADER), headers.get(PlanStepSignature.SIGNATURE_HEADER),
                value);
    }

    private static String refusal(PlanStepVerifier.Verdict verdict) {
        assertThat(verdict).isInstanceOf(PlanStepVerifier.Refused.class);
        return ((PlanStepVerifier.Refused) verdict).reason();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] sha256(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes(key));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
