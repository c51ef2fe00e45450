package dev.toolsmith.capabilities.policy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.id;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.rateTool;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.runStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.airlock.ApprovalSigner;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: an admin changes the policy of a tool in service. The librarian publishes the change as a new,
 * sealed approval version of the same definition, which reaches the capabilities manager as that approval's
 * build. A change without the librarian's valid seal (unsigned, signed with another key, or sealed for
 * another policy) is refused like a forged approval and changes nothing; a sealed one is in force at once,
 * with the usage counted so far kept, so a lowered quota refuses the next call.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PolicyChangeEnforcementTest {

    private static final VerificationReport PASSED = new VerificationReport(true, List.of(), 5);
    private static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule()).build();

    static WireMockServer api;

    @Inject
    PluginRegistry registry;

    @BeforeAll
    static void startApi() {
        api = WrappedPlugins.startApi();
        api.stubFor(get(urlPathEqualTo("/rate")).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 1.5}")));
    }

    @AfterAll
    static void stopApi() {
        api.stop();
    }

    @Test
    void aForgedPolicyChangeIsRefusedAndASealedOneLowersTheQuotaAtOnce() throws Exception {
        String toolId = id("policy-change") + ".rate";
        String verb = "RATE_POLICY_CHANGE_" + id("v").substring(2).toUpperCase().replace("-", "");
        ToolManifest tool = rateTool(toolId, verb, api, null, 5_000, 0, null);
        UsagePolicy fivePerDay = new UsagePolicy(null, new UsagePolicy.Quota(5L, 100L), null, null, null);
        register(registry, tool, fivePerDay);
        assertThat(runStep(PLANNER, verb, java.util.Map.of("case", toolId)).status()).isEqualTo(StepStatus.SUCCEEDED);
        assertThat(runStep(PLANNER, verb, java.util.Map.of("case", toolId)).status()).isEqualTo(StepStatus.SUCCEEDED);

        UsagePolicy loosened = new UsagePolicy(null, new UsagePolicy.Quota(1000L, 10_000L), null, null, null);
        ApprovalSigner foreignKey = ApprovalSigner.fromBase64(Base64.getEncoder().encodeToString(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded()), "a forger's key");
        ApprovalSeal forgedSeal = foreignKey.seal(tool, loosened, 3, "mallory", Instant.now(), JSON);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLUGIN_BUILT))) {
            // unsigned, signed with another key, and sealed for another (tighter) policy than the one it carries
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, 2, true, tool, loosened, PASSED, null, null));
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, 3, true, tool, loosened, PASSED, null,
                    forgedSeal));
            kafka.send(Topics.PLUGIN_BUILT, toolId, new PluginBuilt(toolId, 4, true, tool, loosened, PASSED, null,
                    TestApprovals.seal(tool, fivePerDay, 4)));
            await().atMost(Duration.ofSeconds(30)).until(() -> dlq.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> toolId.equals(r.key())).count() >= 3);
            List<String> reasons = dlq.pollFor(Duration.ZERO).stream().filter(r -> toolId.equals(r.key()))
                    .map(r -> dlq.headersOf(r).get("dead-letter-reason")).toList();
            assertThat(reasons).hasSize(3)
                    .anySatisfy(r -> assertThat(r).contains("carries no approval seal"))
                    .anySatisfy(r -> assertThat(r).contains("does not verify with the librarian's key"))
                    .anySatisfy(r -> assertThat(r).contains("its usage policy is not the approved one"));
        }
        // nothing changed: still five a day
        assertThat(registry.byToolId(toolId).orElseThrow().policy().path("quota").path("perDay").asLong()).isEqualTo(5);
        assertThat(runStep(PLANNER, verb, java.util.Map.of("case", toolId)).status()).isEqualTo(StepStatus.SUCCEEDED);

        // the librarian's sealed change to two a day: in force at once, the three calls made so far still count
        UsagePolicy twoPerDay = new UsagePolicy(null, new UsagePolicy.Quota(2L, 100L), null, null, null);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_BUILT, toolId, TestApprovals.built(tool, twoPerDay, 5, PASSED));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> registry.byToolId(toolId)
                .filter(p -> p.policy() != null && p.policy().path("quota").path("perDay").asLong() == 2).isPresent());
        StepResult next = runStep(PLANNER, verb, java.util.Map.of("case", toolId));
        assertThat(next.status()).isEqualTo(StepStatus.DENIED);
        assertThat(next.error()).contains("daily quota of 2 calls", toolId);
        assertThat(api.countRequestsMatching(getRequestedFor(urlPathEqualTo("/rate"))
                .withQueryParam("case", com.github.tomakehurst.wiremock.client.WireMock.equalTo(toolId)).build())
                .getCount()).isEqualTo(3);
    }
}
