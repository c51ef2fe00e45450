package dev.toolsmith.openapi;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.sun.net.httpserver.HttpServer;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.openapi.fetch.FetchException;
import dev.toolsmith.openapi.fetch.FetchLimits;
import dev.toolsmith.openapi.fetch.GuardedFetcher;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hostile documents and hosts, over real HTTP (WireMock and a raw JDK server on loopback). */
class HostileFetchTest {

    private static WireMockServer wiremock;

    /** Loopback is where the test servers live: this ingestor is allowed to reach it, as local development is. */
    private final OpenApiIngestor local = new OpenApiIngestor(IngestionLimits.defaults(), new AddressPolicy(true));
    private final OpenApiIngestor production = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());

    @BeforeAll
    static void start() {
        wiremock = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        wiremock.start();
    }

    @AfterAll
    static void stop() {
        wiremock.stop();
    }

    @Test
    void aDocumentFetchedOverHttpIsIngestedWithItsExternalRefsInlined() throws Exception {
        wiremock.stubFor(get(urlEqualTo("/api/openapi.yaml")).willReturn(aResponse().withBody("""
                openapi: 3.0.0
                info: {title: Remote, version: '1'}
                servers: [{url: /v1}]
                paths:
                  /items:
                    get:
                      operationId: listItems
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: 'schemas/item.yaml#/Item'}
                """)));
        wiremock.stubFor(get(urlEqualTo("/api/schemas/item.yaml")).willReturn(aResponse().withBody("""
                Item:
                  type: object
                  properties:
                    id: {type: string}
                    tags: {$ref: '#/Tags'}
                Tags: {type: array, items: {type: string}}
                """)));

        IngestedDocument document = local.ingest(URI.create(wiremock.baseUrl() + "/api/openapi.yaml"),
                ToolSourceType.OPENAPI);

        var manifest = document.candidates().get(0).manifest();
        assertThat(manifest.binding().serverUrl()).isEqualTo(wiremock.baseUrl() + "/v1");
        assertThat(manifest.outputSchema().path("properties").path("tags").path("items").path("type").asText())
                .isEqualTo("string");
    }

    @Test
    void aFiftyMegabyteDocumentIsRefusedWithoutBeingRead() {
        byte[] huge = new byte[50 * 1024 * 1024];
        Arrays.fill(huge, (byte) ' ');
        wiremock.stubFor(get(urlEqualTo("/huge.yaml")).willReturn(aResponse().withBody(huge)));

        assertThatThrownBy(() -> local.ingest(URI.create(wiremock.baseUrl() + "/huge.yaml"), ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("than the limit of 10485760 bytes")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.FETCH_FAILED);
    }

    @Test
    void anEndlessStreamWithoutLengthIsCutOffAtTheLimit() throws Exception {
        AtomicLong written = new AtomicLong();
        CountDownLatch serverDone = new CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/endless", exchange -> {
            exchange.sendResponseHeaders(200, 0); // chunked, no Content-Length
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) 'a');
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 800; i++) { // would be 50 MB
                    out.write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException clientHungUp) {
                // expected: the fetcher stops reading at its limit
            } finally {
                serverDone.countDown();
            }
        });
        server.start();
        try {
            GuardedFetcher fetcher = new GuardedFetcher(FetchLimits.defaults().withMaxBytes(1024 * 1024),
                    new AddressPolicy(true));
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/endless");
            assertThatThrownBy(() -> fetcher.fetch(uri))
                    .isInstanceOf(FetchException.class)
                    .hasMessageContaining("larger than the limit of 1048576 bytes")
                    .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.TOO_LARGE);
            assertThat(serverDone.await(10, TimeUnit.SECONDS)).as("the server noticed the fetcher hang up").isTrue();
            assertThat(written.get()).as("the server could not push the whole 50 MB").isLessThan(40L * 1024 * 1024);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anExternalRefToAPrivateAddressIsRefused() {
        String doc = """
                openapi: 3.0.0
                info: {title: Sneaky, version: '1'}
                servers: [{url: 'https://sneaky.example.com'}]
                paths:
                  /x:
                    get:
                      responses:
                        '200':
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: '%s/internal/secrets.yaml#/Secret'}
                """.formatted(wiremock.baseUrl());
        assertThatThrownBy(() -> production.ingest(doc.getBytes(), URI.create("https://sneaky.example.com/openapi.yaml"),
                ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("external $ref " + wiremock.baseUrl() + "/internal/secrets.yaml")
                .hasMessageContaining("127.0.0.1, a loopback address")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.BAD_REFERENCE);
        assertThat(wiremock.findAll(com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor(
                urlEqualTo("/internal/secrets.yaml")))).isEmpty();
    }

    @Test
    void aRefToALocalFileOfAFetchedDocumentIsRefused() {
        String doc = """
                openapi: 3.0.0
                info: {title: Files, version: '1'}
                paths:
                  /x:
                    get:
                      responses:
                        '200': {$ref: 'file:///etc/passwd'}
                """;
        assertThatThrownBy(() -> production.ingest(doc.getBytes(), URI.create("https://files.example.com/openapi.yaml"),
                ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("file:///etc/passwd is not allowed");
    }

    @Test
    void aPrivateDocumentUrlIsRefusedInProduction() {
        assertThatThrownBy(() -> production.ingest(URI.create(wiremock.baseUrl() + "/api/openapi.yaml"),
                ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("resolves to 127.0.0.1, a loopback address")
                .hasMessageContaining("not allowed");
    }

    @Test
    void aRedirectToAMetadataAddressIsRefusedAtThatHop() {
        wiremock.stubFor(get(urlEqualTo("/moved.yaml")).willReturn(aResponse().withStatus(302)
                .withHeader("Location", "http://169.254.169.254/latest/meta-data/iam/security-credentials/")));

        assertThatThrownBy(() -> local.ingest(URI.create(wiremock.baseUrl() + "/moved.yaml"), ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("169.254.169.254")
                .hasMessageContaining("cloud metadata")
                .cause().isInstanceOf(FetchException.class)
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BLOCKED_ADDRESS);
    }

    @Test
    void aRedirectToAPrivateAddressIsRefusedAtThatHop() {
        // production policy, with only the test server's own address exempted: the redirect target is private
        wiremock.stubFor(get(urlEqualTo("/to-private.yaml")).willReturn(aResponse().withStatus(301)
                .withHeader("Location", "http://10.20.30.40/openapi.yaml")));
        OpenApiIngestor guarded = new OpenApiIngestor(IngestionLimits.defaults(),
                new AddressPolicy(false, java.util.Set.of("127.0.0.1")));

        assertThatThrownBy(() -> guarded.ingest(URI.create(wiremock.baseUrl() + "/to-private.yaml"),
                ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("10.20.30.40, a private (RFC 1918) address")
                .cause().isInstanceOf(FetchException.class)
                .extracting(e -> ((FetchException) e).reason()).isEqualTo(FetchException.Reason.BLOCKED_ADDRESS);
    }

    @Test
    void tooManyRedirectsAreRefused() {
        for (int i = 0; i < 8; i++) {
            wiremock.stubFor(get(urlEqualTo("/loop" + i)).willReturn(aResponse().withStatus(302)
                    .withHeader("Location", "/loop" + (i + 1))));
        }
        assertThatThrownBy(() -> local.ingest(URI.create(wiremock.baseUrl() + "/loop0"), ToolSourceType.OPENAPI))
                .hasMessageContaining("more than 5 redirects");
    }

    @Test
    void anUnreachableUrlIsAClearError() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertThatThrownBy(() -> local.ingest(URI.create("http://127.0.0.1:" + closedPort + "/openapi.yaml"),
                ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("cannot connect to 127.0.0.1:" + closedPort);
        assertThatThrownBy(() -> local.ingest(URI.create("http://no-such-host.invalid/openapi.yaml"),
                ToolSourceType.OPENAPI))
                .hasMessageContaining("no-such-host.invalid does not resolve");
        assertThatThrownBy(() -> local.ingest(URI.create("ftp://example.com/openapi.yaml"), ToolSourceType.OPENAPI))
                .hasMessageContaining("is not an http(s) URL");
    }

    @Test
    void aMissingDocumentAndASlowServerAreClearErrors() {
        wiremock.stubFor(get(urlEqualTo("/missing.yaml")).willReturn(aResponse().withStatus(404)));
        assertThatThrownBy(() -> local.ingest(URI.create(wiremock.baseUrl() + "/missing.yaml"), ToolSourceType.OPENAPI))
                .hasMessageContaining("answered HTTP 404 (not found)");

        wiremock.stubFor(get(urlEqualTo("/slow.yaml")).willReturn(aResponse().withFixedDelay(3000).withBody("x: 1")));
        OpenApiIngestor impatient = new OpenApiIngestor(IngestionLimits.defaults().withFetch(
                FetchLimits.defaults().withTimeout(Duration.ofMillis(500))), new AddressPolicy(true));
        assertThatThrownBy(() -> impatient.ingest(URI.create(wiremock.baseUrl() + "/slow.yaml"), ToolSourceType.OPENAPI))
                .hasMessageContaining("took longer than 500 ms");
    }
}
