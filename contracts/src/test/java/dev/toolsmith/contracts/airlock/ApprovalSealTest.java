package dev.toolsmith.contracts.airlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A build registers only with the seal of its own approval; every way to bend that is refused. */
class ApprovalSealTest {

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();
    private static final Instant AT = Instant.parse("2026-11-25T17:00:00Z");

    private final KeyPair librarian = keyPair();
    private final ApprovalSigner signer = ApprovalSigner.fromBase64(privateKey(librarian), "signing-key");
    private final ApprovalVerifier verifier = ApprovalVerifier.fromBase64(publicKey(librarian), "verify-key");

    @Test
    void theBuildOfAnApprovalVerifiesEvenWithTheEngineersLegitimateChanges() {
        ToolManifest approved = manifest("https://api.example.com/v1/", "GET", Risk.READ_ONLY);
        ApprovalSeal seal = signer.seal(approved, policy(List.of("planner-a")), 3, "alice", AT, JSON);
        // what the engineer may change: description, tags, timeouts, auth resolved, trailing slash dropped
        ToolManifest built = new ToolManifest(approved.id(), approved.verb(), approved.name(), "Improved by an LLM",
                approved.source(), approved.namespace(), approved.domain(), List.of("extra-tag"), approved.inputSchema(),
                approved.outputSchema(), approved.risk(), rebind(approved.binding(), "https://api.example.com/v1", "GET", 2000),
                new HealthProbe(rebind(approved.binding(), "https://api.example.com/v1", "GET", 2000),
                        approved.healthProbe().inputs(), 60, null), 3, "sha256:built");
        assertEquals(java.util.Optional.empty(), verifier.refusal(built(built, 3, policy(List.of("planner-a")), seal), JSON));
    }

    @Test
    void aBuildWithoutSealForgedSealOrAnotherKeysSealIsRefused() {
        ToolManifest approved = manifest("https://api.example.com/v1", "GET", Risk.READ_ONLY);
        UsagePolicy policy = policy(List.of());
        assertRefused(built(approved, 1, policy, null), "no approval seal");

        ApprovalSeal seal = signer.seal(approved, policy, 1, "alice", AT, JSON);
        ApprovalSeal otherKey = ApprovalSigner.fromBase64(privateKey(keyPair()), "k").seal(approved, policy, 1,
                "alice", AT, JSON);
        assertRefused(built(approved, 1, policy, otherKey), "does not verify");
        ApprovalSeal renamed = new ApprovalSeal(seal.toolId(), seal.version(), seal.callHash(), seal.probeHash(),
                seal.policyHash(), seal.manifestHash(), "mallory", seal.approvedAt(), seal.signature());
        assertRefused(built(approved, 1, policy, renamed), "does not verify");
        ApprovalSeal garbage = new ApprovalSeal(seal.toolId(), 1, seal.callHash(), seal.probeHash(), seal.policyHash(),
                seal.manifestHash(), "alice", AT, "not base64!");
        assertRefused(built(approved, 1, policy, garbage), "does not verify");
    }

    @Test
    void aSealCannotCarryAnotherCallVersionToolOrPolicy() {
        ToolManifest approved = manifest("https://api.example.com/v1", "GET", Risk.READ_ONLY);
        UsagePolicy limited = policy(List.of("planner-a"));
        ApprovalSeal seal = signer.seal(approved, limited, 2, "alice", AT, JSON);

        assertRefused(built(manifest("https://169.254.169.254/v1", "GET", Risk.READ_ONLY), 2, limited, seal), "call");
        assertRefused(built(manifest("https://api.example.com/v1", "DELETE", Risk.READ_ONLY), 2, limited, seal), "call");
        assertRefused(built(manifest("https://api.example.com/v1", "GET", Risk.DESTRUCTIVE), 2, limited, seal), "call");
        assertRefused(built(approved, 3, limited, seal), "version 2, not 3");
        assertRefused(built(approved, 2, policy(List.of()), seal), "usage policy");
        assertRefused(built(approved, 2, null, seal), "usage policy");
        ToolManifest otherProbe = withProbe(approved, rebind(approved.binding(), "https://evil.example.net", "GET", 0));
        assertRefused(built(otherProbe, 2, limited, seal), "health probe");
        PluginBuilt otherTool = new PluginBuilt("other.tool", 2, true, approved, limited, report(), null, seal);
        assertRefused(otherTool, "for tool fx.convert, not other.tool");
        ToolManifest renamedPlugin = new ToolManifest("other.tool", approved.verb(), approved.name(),
                approved.description(), approved.source(), approved.namespace(), approved.domain(), approved.tags(),
                approved.inputSchema(), approved.outputSchema(), approved.risk(), approved.binding(),
                approved.healthProbe(), 2, null);
        assertRefused(new PluginBuilt("fx.convert", 2, true, renamedPlugin, limited, report(), null, seal),
                "not the plugin other.tool");
        // a failed build is the verdict on its approval only: same tool and version, a valid seal
        assertEquals(java.util.Optional.empty(), verifier.refusal(
                new PluginBuilt("fx.convert", 2, false, null, limited, report(), "broken", seal), JSON));
        assertRefused(new PluginBuilt("fx.convert", 3, false, null, limited, report(), "broken", seal), "version");
        assertRefused(new PluginBuilt("fx.convert", 2, false, null, limited, report(), "broken", null), "no approval");
    }

    @Test
    void keysThatAreNotKeysAreNamedByTheirSetting() {
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> ApprovalSigner.fromBase64(" ", "toolsmith.approvals.signing-key"));
        assertTrue(blank.getMessage().contains("toolsmith.approvals.signing-key is not set"), blank.getMessage());
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> ApprovalVerifier.fromBase64(privateKey(librarian), "toolsmith.approvals.verify-key"));
        assertTrue(wrong.getMessage().startsWith("toolsmith.approvals.verify-key is not a base64 X.509"), wrong.getMessage());
    }

    private void assertRefused(PluginBuilt built, String reasonPart) {
        String reason = verifier.refusal(built, JSON).orElseThrow(() -> new AssertionError("accepted: " + built));
        assertTrue(reason.contains(reasonPart), reason);
    }

    private static PluginBuilt built(ToolManifest plugin, int version, UsagePolicy policy, ApprovalSeal seal) {
        return new PluginBuilt(plugin.id(), version, true, plugin, policy, report(), null, seal);
    }

    private static VerificationReport report() {
        return new VerificationReport(true, List.of(), 1);
    }

    private static UsagePolicy policy(List<String> callers) {
        return new UsagePolicy(new UsagePolicy.RateLimit(5.0, 100, 10), null, null, callers, Map.of());
    }

    private static ToolManifest manifest(String server, String method, Risk risk) {
        HttpBinding binding = new HttpBinding(method, server, "/convert/{from}",
                List.of(new ParameterBinding("from", "from", ParameterLocation.PATH, "simple", false, true)),
                null, AuthBinding.none(), 5000, 1_000_000);
        return new ToolManifest("fx.convert", "FX_CONVERT", "Convert", "Converts an amount", ToolSourceType.OPENAPI,
                "finance", "fx", List.of(), JSON.createObjectNode().put("type", "object"),
                JSON.createObjectNode().put("type", "object"), risk, binding,
                new HealthProbe(binding, Map.of("from", JSON.getNodeFactory().textNode("EUR")), 30, null), 1, null);
    }

    private static ToolManifest withProbe(ToolManifest m, HttpBinding probe) {
        return new ToolManifest(m.id(), m.verb(), m.name(), m.description(), m.source(), m.namespace(), m.domain(),
                m.tags(), m.inputSchema(), m.outputSchema(), m.risk(), m.binding(),
                new HealthProbe(probe, m.healthProbe().inputs(), 30, null), m.version(), m.contentHash());
    }

    private static HttpBinding rebind(HttpBinding b, String server, String method, int timeoutMs) {
        return new HttpBinding(method, server, b.pathTemplate(), b.parameters(), b.bodyEncoding(),
                new AuthBinding(AuthBinding.Scheme.NONE, null, null), timeoutMs, b.maxResponseBytes());
    }

    private static KeyPair keyPair() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String privateKey(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPrivate().getEncoded());
    }

    private static String publicKey(KeyPair pair) {
        return Base64.getEncoder().encodeToString(pair.getPublic().getEncoded());
    }
}
