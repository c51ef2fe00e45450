package dev.toolsmith.sandbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.toolsmith.sandbox.Tools.base;
import static dev.toolsmith.sandbox.Tools.binding;
import static dev.toolsmith.sandbox.Tools.json;
import static dev.toolsmith.sandbox.Tools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With private networks allowed (local use, {@code ./toolsmith up}), a wrapped tool still cannot reach
 * the cloud metadata service: not by its address in any spelling, not by its host names, not through a
 * redirect and not through a name that resolves elsewhere when checked and to it when connecting.
 */
class MetadataEgressTest {

    static WireMockServer server;

    @BeforeAll
    static void start() {
        server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop();
    }

    @BeforeEach
    void reset() {
        server.resetAll();
    }

    private static ToolManifest getTool(String serverUrl) {
        return tool(binding("GET", serverUrl, "/latest/meta-data/iam/security-credentials", List.of(), null,
                AuthBinding.none(), 1_000, 65_536), json("{'type':'object'}"), json("{}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://169.254.169.254", "http://169.254.170.2", "http://2852039166",
            "http://0xA9FEA9FE", "http://0251.0376.0251.0376", "http://[::ffff:169.254.169.254]",
            "http://[::ffff:a9fe:a9fe]", "http://[fd00:ec2::254]", "http://[fe80::a9fe:a9fe]",
            "http://169.254.169.254.", "http://metadata.google.internal", "http://metadata", "http://instance-data."})
    void theMetadataServiceIsRefusedWithPrivateNetworksAllowed(String serverUrl) {
        ExecutionOutcome outcome = new WrappedToolExecutor().execute(getTool(serverUrl), Map.of(), SecretResolver.none(),
                ExecutionLimits.localDevelopment());

        assertThat(outcome.failureKind()).as(outcome.reason()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.reason()).contains("refused in every mode");
    }

    @Test
    void theRefusalSaysWhatTheDestinationIs() {
        ExecutionOutcome outcome = new WrappedToolExecutor().execute(getTool("http://169.254.169.254"), Map.of(),
                SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(outcome.reason()).isEqualTo(
                "destination 169.254.169.254 is a link-local/cloud metadata address, refused in every mode");
    }

    @Test
    void aRedirectToTheMetadataServiceIsRefused() {
        server.stubFor(get(anyUrl()).willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://169.254.169.254/latest/meta-data/")));

        ExecutionOutcome outcome = new WrappedToolExecutor().execute(getTool(base(server)), Map.of(),
                SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.reason()).isEqualTo("redirect to 169.254.169.254 refused: destination 169.254.169.254 "
                + "is a link-local/cloud metadata address, refused in every mode");
    }

    @Test
    void aNameThatRebindsToTheMetadataAddressAfterTheCheckIsRefusedWhenConnecting() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        InetAddress metadata = InetAddress.getByName("169.254.169.254");
        AtomicInteger lookups = new AtomicInteger();
        // the first answer (the check before sending) is harmless; every later one (the connection) is not
        WrappedToolExecutor executor = new WrappedToolExecutor(new ObjectMapper(), host -> {
            if (!host.equals("rebinding.example")) {
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {lookups.getAndIncrement() == 0 ? loopback : metadata};
        });

        ExecutionOutcome outcome = executor.execute(getTool("http://rebinding.example:" + server.port()), Map.of(),
                SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(lookups.get()).isEqualTo(2);
        assertThat(outcome.failureKind()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.reason()).isEqualTo("destination rebinding.example resolves to 169.254.169.254 which is a "
                + "link-local/cloud metadata address, refused in every mode");
        assertThat(server.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    @Test
    void aNamedHostIsCalledOnTheAddressThatWasChecked() throws Exception {
        server.stubFor(get(urlPathEqualTo("/latest/meta-data/iam/security-credentials"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("{\"ok\":true}")));
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        WrappedToolExecutor executor = new WrappedToolExecutor(new ObjectMapper(), host -> {
            if (!host.equals("api.pinned.example")) {
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {loopback};
        });

        ExecutionOutcome outcome = executor.execute(getTool("http://api.pinned.example:" + server.port()), Map.of(),
                SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        server.verify(1, getRequestedFor(urlPathEqualTo("/latest/meta-data/iam/security-credentials"))
                .withHeader("Host", WireMock.equalTo("api.pinned.example:" + server.port())));
    }
}
