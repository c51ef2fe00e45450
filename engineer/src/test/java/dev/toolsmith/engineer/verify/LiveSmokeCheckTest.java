package dev.toolsmith.engineer.verify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.PolicySecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live check calls the real server's probe with the decrypted secret, and reports what went wrong. */
class LiveSmokeCheckTest {

    WireMockServer api;
    final AesGcmSecretCipher cipher = new AesGcmSecretCipher("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII));

    @BeforeEach
    void start() {
        api = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        api.start();
    }

    @AfterEach
    void stop() {
        api.stop();
    }

    @Test
    void aHealthyProbePassesWithTheRealSecretAndAFailingOneFailsWithItsReason() {
        ToolManifest plugin = pointedAtApi();
        PolicySecretResolver secrets = new PolicySecretResolver(Map.of("fx_key", cipher.encrypt("live-key")), cipher);
        ExecutionLimits local = new ExecutionLimits(true, 0, 2_000, java.util.Set.of());
        api.stubFor(get(urlEqualTo("/v1/status")).willReturn(aResponse().withBody("{\"ok\":true}")));

        CaseResult healthy = new LiveSmokeCheck(new WrappedToolExecutor()).probe(plugin, secrets, local);

        assertThat(healthy.passed()).as(healthy.detail()).isTrue();
        api.verify(getRequestedFor(urlEqualTo("/v1/status")).withHeader("X-Api-Key",
                com.github.tomakehurst.wiremock.client.WireMock.equalTo("live-key")));

        api.stubFor(get(urlEqualTo("/v1/status")).willReturn(aResponse().withStatus(503)));
        CaseResult failing = new LiveSmokeCheck(new WrappedToolExecutor()).probe(plugin, secrets, local);
        assertThat(failing.passed()).isFalse();
        assertThat(failing.detail()).contains("HTTP_STATUS HTTP 503 from 127.0.0.1").doesNotContain("live-key");

        CaseResult refused = new LiveSmokeCheck(new WrappedToolExecutor()).probe(plugin, secrets, ExecutionLimits.production());
        assertThat(refused.passed()).isFalse();
        assertThat(refused.detail()).contains("private networks are not allowed");
    }

    private ToolManifest pointedAtApi() {
        ToolManifest plugin = PluginVerifierTest.ratesPlugin();
        HttpBinding probe = plugin.healthProbe().binding();
        HttpBinding local = new HttpBinding(probe.method(), "http://127.0.0.1:" + api.port() + "/v1", probe.pathTemplate(),
                probe.parameters(), probe.bodyEncoding(), probe.auth(), probe.timeoutMs(), probe.maxResponseBytes());
        return new ToolManifest(plugin.id(), plugin.verb(), plugin.name(), plugin.description(), plugin.source(),
                plugin.namespace(), plugin.domain(), plugin.tags(), plugin.inputSchema(), plugin.outputSchema(),
                plugin.risk(), plugin.binding(), new HealthProbe(local, Map.of(), 60, null), 1, null);
    }
}
