package dev.toolsmith.contracts.airlock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Seals across hash versions: a seal signed before hashes were versioned ({@code sha256:}, written by the contracts of
 * f3279c9 into fixtures/v1-approval.json) still verifies its build and refuses another; a seal naming a hash version
 * nobody knows is refused; a new seal binds numbers by value, not by notation.
 */
class SealHashVersionsTest {

    private final ObjectMapper json = new ContractCodec().mapper();

    @Test
    void aSealSignedWithFirstVersionHashesStillVerifiesItsBuildAndNoOther() throws IOException {
        JsonNode fixture = fixture();
        ApprovalVerifier verifier = ApprovalVerifier.fromBase64(fixture.path("publicKey").asText(), "verify-key");
        ApprovalSeal seal = json.treeToValue(fixture.path("seal"), ApprovalSeal.class);
        ToolManifest plugin = json.treeToValue(fixture.path("manifest"), ToolManifest.class);
        UsagePolicy policy = json.treeToValue(fixture.path("policy"), UsagePolicy.class);
        assertThat(List.of(seal.callHash(), seal.probeHash(), seal.policyHash())).allMatch(h -> h.startsWith("sha256:"));

        assertThat(verifier.refusal(built(plugin, policy, seal), json)).isEmpty();

        ToolManifest elsewhere = rebound(plugin, "https://169.254.169.254/v1");
        assertThat(verifier.refusal(built(elsewhere, policy, seal), json)).get().asString().contains("call");
        UsagePolicy unlimited = UsagePolicy.unrestricted();
        assertThat(verifier.refusal(built(plugin, unlimited, seal), json)).get().asString().contains("usage policy");
        ToolManifest otherProbe = withProbeInputs(plugin, Map.of("amount", json.getNodeFactory().numberNode(2),
                "from", json.getNodeFactory().textNode("EUR")));
        assertThat(verifier.refusal(built(otherProbe, policy, seal), json)).get().asString().contains("health probe");
    }

    @Test
    void aSealNamingAnUnknownHashVersionIsRefusedEvenWhenSignedAndItsDigitsAreRight() throws Exception {
        KeyPair librarian = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        ApprovalVerifier verifier = ApprovalVerifier.fromBase64(
                Base64.getEncoder().encodeToString(librarian.getPublic().getEncoded()), "verify-key");
        ToolManifest plugin = json.treeToValue(fixture().path("manifest"), ToolManifest.class);
        UsagePolicy policy = json.treeToValue(fixture().path("policy"), UsagePolicy.class);
        ApprovalSeal current = ApprovalSigner.fromBase64(
                Base64.getEncoder().encodeToString(librarian.getPrivate().getEncoded()), "k")
                .seal(plugin, policy, 2, "alice", Instant.parse("2026-11-27T10:00:00Z"), json);
        assertThat(current.callHash()).startsWith("sha256-jcs:");
        assertThat(verifier.refusal(built(plugin, policy, current), json)).isEmpty();

        String digits = current.callHash().substring("sha256-jcs:".length());
        ApprovalSeal unknown = signed(librarian, new ApprovalSeal(current.toolId(), current.version(), "sha3-256:" + digits,
                current.probeHash(), current.policyHash(), current.manifestHash(), "alice", current.approvedAt(), null));
        assertThat(verifier.refusal(built(plugin, policy, unknown), json))
                .contains("its approval seal names a hash version this service does not know");
        ApprovalSeal unnamed = signed(librarian, new ApprovalSeal(current.toolId(), current.version(), current.callHash(),
                current.probeHash(), digits, current.manifestHash(), "alice", current.approvedAt(), null));
        assertThat(verifier.refusal(built(plugin, policy, unnamed), json))
                .contains("its approval seal names a hash version this service does not know");
        // the current digits under the first version's name are no first-version hash of this policy (5.0 is "5" in
        // RFC 8785, "5.0" before); a call of strings alone has the same digits in both versions, by design
        String policyDigits = current.policyHash().substring("sha256-jcs:".length());
        ApprovalSeal renamed = signed(librarian, new ApprovalSeal(current.toolId(), current.version(), current.callHash(),
                current.probeHash(), "sha256:" + policyDigits, current.manifestHash(), "alice", current.approvedAt(), null));
        assertThat(verifier.refusal(built(plugin, policy, renamed), json)).get().asString().contains("usage policy");
    }

    @Test
    void aNewSealBindsAProbesNumbersByValueNotByNotation() throws Exception {
        KeyPair librarian = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        ApprovalVerifier verifier = ApprovalVerifier.fromBase64(
                Base64.getEncoder().encodeToString(librarian.getPublic().getEncoded()), "verify-key");
        ToolManifest approved = json.treeToValue(fixture().path("manifest"), ToolManifest.class); // probe amount 1.0
        UsagePolicy policy = json.treeToValue(fixture().path("policy"), UsagePolicy.class);
        ApprovalSeal seal = ApprovalSigner.fromBase64(
                Base64.getEncoder().encodeToString(librarian.getPrivate().getEncoded()), "k")
                .seal(approved, policy, 2, "alice", Instant.parse("2026-11-27T10:00:00Z"), json);

        ToolManifest sameAmount = withProbeInputs(approved, Map.of("amount", json.getNodeFactory().numberNode(1),
                "from", json.getNodeFactory().textNode("EUR")));
        assertThat(verifier.refusal(built(sameAmount, policy, seal), json)).isEmpty();
        ToolManifest otherAmount = withProbeInputs(approved, Map.of("amount", json.getNodeFactory().numberNode(1.5),
                "from", json.getNodeFactory().textNode("EUR")));
        assertThat(verifier.refusal(built(otherAmount, policy, seal), json)).get().asString().contains("health probe");
    }

    private static ApprovalSeal signed(KeyPair key, ApprovalSeal unsigned) throws GeneralSecurityException {
        Signature signer = Signature.getInstance(ApprovalKeys.ALGORITHM);
        signer.initSign(key.getPrivate());
        signer.update(unsigned.signedBytes());
        return unsigned.withSignature(Base64.getEncoder().encodeToString(signer.sign()));
    }

    private static PluginBuilt built(ToolManifest plugin, UsagePolicy policy, ApprovalSeal seal) {
        return new PluginBuilt(plugin.id(), 2, true, plugin, policy, new VerificationReport(true, List.of(), 1), null, seal);
    }

    private ToolManifest rebound(ToolManifest m, String server) {
        ObjectNode tree = json.valueToTree(m);
        ((ObjectNode) tree.path("binding")).put("serverUrl", server);
        return json.convertValue(tree, ToolManifest.class);
    }

    private static ToolManifest withProbeInputs(ToolManifest m, Map<String, JsonNode> inputs) {
        HealthProbe probe = m.healthProbe();
        HttpBinding binding = probe.binding();
        return new ToolManifest(m.id(), m.verb(), m.name(), m.description(), m.source(), m.namespace(), m.domain(),
                m.tags(), m.inputSchema(), m.outputSchema(), m.risk(), m.binding(),
                new HealthProbe(binding, inputs, probe.intervalSeconds(), probe.unavailableReason()), m.version(),
                m.contentHash());
    }

    private JsonNode fixture() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/fixtures/v1-approval.json")) {
            return json.readTree(in);
        }
    }
}
