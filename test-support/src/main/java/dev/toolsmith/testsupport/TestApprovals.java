package dev.toolsmith.testsupport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.airlock.ApprovalSigner;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.time.Instant;

/**
 * The approval-seal key pair of every service's test profile ({@code toolsmith.approvals.signing-key} /
 * {@code verify-key} under {@code %test}), so tests can stand in for the librarian's approval and send
 * builds the services accept, next to the forged ones they must refuse. Never used outside tests.
 */
public final class TestApprovals {

    public static final String SIGNING_KEY = "MC4CAQAwBQYDK2VwBCIEIB8bxnm9hP3WUdy0XM91do8K6IauCRkP8eA9HpRSUY60";
    public static final String VERIFY_KEY = "MCowBQYDK2VwAyEAkP8G5x86AZgbFmPaq0QVtxaVAd5U51QqQt5omv0nodQ=";

    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();
    private static final ApprovalSigner SIGNER = ApprovalSigner.fromBase64(SIGNING_KEY, "TestApprovals.SIGNING_KEY");

    private TestApprovals() {
    }

    /** The seal the librarian would give an admin's approval of {@code manifest} at {@code version}. */
    public static ApprovalSeal seal(ToolManifest manifest, UsagePolicy policy, int version) {
        return SIGNER.seal(manifest, policy, version, "test-admin", Instant.now(), JSON);
    }

    /** A successful, sealed build of {@code manifest}: what the engineer publishes for an approved tool. */
    public static PluginBuilt built(ToolManifest manifest, UsagePolicy policy, int version, VerificationReport report) {
        return new PluginBuilt(manifest.id(), version, true, manifest, policy, report, null,
                seal(manifest, policy, version));
    }
}
