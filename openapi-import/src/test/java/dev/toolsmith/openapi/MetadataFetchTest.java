package dev.toolsmith.openapi;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.openapi.fetch.FetchException;
import dev.toolsmith.openapi.fetch.FetchLimits;
import dev.toolsmith.openapi.fetch.FetchedDocument;
import dev.toolsmith.openapi.fetch.GuardedFetcher;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With private networks allowed (local development), sources and documents are still never fetched from
 * a link-local or cloud metadata destination: in any spelling of the address, by its host names, or by
 * a name that resolves to it only when the connection is made.
 */
class MetadataFetchTest {

    private static WireMockServer wiremock;
    private final AddressPolicy local = new AddressPolicy(true);

    @BeforeAll
    static void start() {
        wiremock = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        wiremock.start();
    }

    @AfterAll
    static void stop() {
        wiremock.stop();
    }

    @BeforeEach
    void reset() {
        wiremock.resetAll();
    }

    @ParameterizedTest
    @ValueSource(strings = {"169.254.169.254", "169.254.1.1", "169.254.170.2", "2852039166", "0xA9FEA9FE",
            "0251.0376.0251.0376", "[::ffff:a9fe:a9fe]", "[fe80::1]", "[fd00:ec2::254]", "metadata.google.internal.",
            "instance-data"})
    void metadataHostsAreRefusedWithPrivateNetworksAllowed(String host) {
        assertThatThrownBy(() -> local.resolveAndCheck(host)).as(host)
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("refused in every mode")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BLOCKED_ADDRESS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://0251.0376.0251.0376/latest/meta-data/", "http://0xA9FEA9FE/openapi.json",
            "http://169.254.169.254./openapi.json", "http://[fe80::a9fe:a9fe]/openapi.json"})
    void aDocumentUrlOnTheMetadataServiceIsRefusedNamingWhy(String url) {
        GuardedFetcher fetcher = new GuardedFetcher(FetchLimits.defaults(), local);

        assertThatThrownBy(() -> fetcher.fetch(url)).as(url)
                .isInstanceOf(FetchException.class)
                .hasMessageContaining("is a link-local/cloud metadata address, refused in every mode")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BLOCKED_ADDRESS);
    }

    @Test
    void aNameThatResolvesToTheMetadataAddressWhenConnectingIsRefused() throws Exception {
        wiremock.stubFor(get(urlEqualTo("/openapi.json")).willReturn(aResponse().withBody("{}")));
        InetAddress metadata = InetAddress.getByName("169.254.169.254");
        // the check before sending resolves localhost as usual; the connection's lookup gets the rebound answer
        GuardedFetcher fetcher = new GuardedFetcher(FetchLimits.defaults(), local, host -> new InetAddress[] {metadata});

        assertThatThrownBy(() -> fetcher.fetch("http://localhost:" + wiremock.port() + "/openapi.json"))
                .isInstanceOf(FetchException.class)
                .hasMessage("destination localhost resolves to 169.254.169.254 which is a link-local/cloud metadata "
                        + "address, refused in every mode")
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BLOCKED_ADDRESS);
        assertThat(wiremock.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    @Test
    void aNamedHostIsFetchedFromTheAddressThatWasChecked() throws Exception {
        wiremock.stubFor(get(urlEqualTo("/openapi.json")).willReturn(aResponse().withBody("{\"openapi\":\"3.0.0\"}")));
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        GuardedFetcher fetcher = new GuardedFetcher(FetchLimits.defaults(), local, host -> new InetAddress[] {loopback});

        FetchedDocument document = fetcher.fetch("http://localhost:" + wiremock.port() + "/openapi.json");

        assertThat(new String(document.body(), StandardCharsets.UTF_8)).isEqualTo("{\"openapi\":\"3.0.0\"}");
    }
}
