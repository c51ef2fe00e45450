package dev.toolsmith.sandbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.toolsmith.sandbox.Tools.base;
import static dev.toolsmith.sandbox.Tools.binding;
import static dev.toolsmith.sandbox.Tools.inputs;
import static dev.toolsmith.sandbox.Tools.json;
import static dev.toolsmith.sandbox.Tools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Failures of the remote side and of the caller become clear, typed outcomes; refused calls send nothing. */
class ExecutorFaultsTest {

    private static final JsonNode RATE_INPUT = json("{'type':'object','required':['from','amount'],"
            + "'properties':{'from':{'type':'string','pattern':'^[A-Z]{3}$'},'amount':{'type':'number','minimum':0}}}");
    private static final JsonNode RATE_OUTPUT = json("{'type':'object','required':['rate'],"
            + "'properties':{'rate':{'type':'number'},'note':{'type':'string','nullable':true}}}");

    static WireMockServer server;
    static WireMockServer otherHost;
    final WrappedToolExecutor executor = new WrappedToolExecutor();

    @BeforeAll
    static void start() {
        server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        otherHost = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
        otherHost.start();
    }

    @AfterAll
    static void stop() {
        server.stop();
        otherHost.stop();
    }

    @BeforeEach
    void reset() {
        server.resetAll();
        otherHost.resetAll();
    }

    @Test
    void aValidResponseIsReturnedAsOutputs() {
        stubRate(aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\":1.1,\"note\":null}"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(outcome.httpStatus()).isEqualTo(200);
        assertThat(outcome.outputs()).isEqualTo(json("{'rate':1.1,'note':null}"));
        assertThat(outcome.request().url()).isEqualTo(base(server) + "/rate?from=EUR&amount=10");
    }

    @Test
    void anInvalidInputIsRefusedBeforeAnythingIsSentAndTheReasonNamesTheField() {
        ExecutionOutcome wrongType = executor.execute(rateTool(base(server), 2_000, 0),
                inputs("{'from':'EUR','amount':'ten'}"), SecretResolver.none(), ExecutionLimits.localDevelopment());
        ExecutionOutcome missing = executor.execute(rateTool(base(server), 2_000, 0),
                inputs("{'amount':10}"), SecretResolver.none(), ExecutionLimits.localDevelopment());
        ExecutionOutcome badPattern = executor.execute(rateTool(base(server), 2_000, 0),
                inputs("{'from':'euro','amount':10}"), SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(wrongType.failureKind()).isEqualTo(FailureKind.INVALID_INPUT);
        assertThat(wrongType.reason()).startsWith("invalid input /amount:").contains("number");
        assertThat(missing.reason()).startsWith("invalid input /from:");
        assertThat(badPattern.reason()).startsWith("invalid input /from:");
        assertThat(wrongType.request()).isNull();
        assertThat(server.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    @Test
    void aResponseSlowerThanTheTimeoutIsATimeout() {
        stubRate(aResponse().withFixedDelay(1_500).withBody("{\"rate\":1}"));

        ExecutionOutcome outcome = callRate(base(server), 300, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.TIMEOUT);
        assertThat(outcome.reason()).isEqualTo("timed out after 300 ms");
        assertThat(outcome.durationMs()).isLessThan(1_400);
    }

    @Test
    void aServerErrorCarriesItsStatusAndHost() {
        stubRate(aResponse().withStatus(503).withBody("maintenance"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.HTTP_STATUS);
        assertThat(outcome.httpStatus()).isEqualTo(503);
        assertThat(outcome.reason()).isEqualTo("HTTP 503 from 127.0.0.1: maintenance");
    }

    @Test
    void aConnectionResetIsReportedAsSuch() {
        stubRate(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.CONNECTION);
        assertThat(outcome.reason()).isEqualTo("connection reset");
    }

    @Test
    void aConnectionClosedMidResponseIsAConnectionFailure() {
        stubRate(aResponse().withFault(Fault.EMPTY_RESPONSE));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.CONNECTION);
        assertThat(outcome.reason()).contains("127.0.0.1");
    }

    @Test
    void aDeclaredOversizedBodyIsRefusedWithoutReadingIt() {
        stubRate(aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\":1,\"note\":\""
                + "x".repeat(4_000) + "\"}"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 1024);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.RESPONSE_TOO_LARGE);
        assertThat(outcome.reason()).isEqualTo("response exceeds 1 KB");
    }

    @Test
    void aStreamedOversizedBodyIsCutOffAtTheCap() {
        stubRate(aResponse().withHeader("Content-Type", "application/json")
                .withChunkedDribbleDelay(20, 100)
                .withBody("{\"rate\":1,\"note\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}"));

        ExecutionOutcome outcome = callRate(base(server), 5_000, 2L * 1024 * 1024);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.RESPONSE_TOO_LARGE);
        assertThat(outcome.reason()).isEqualTo("response exceeds 2 MB");
    }

    @Test
    void aResponseThatBreaksTheOutputSchemaIsRejectedWithThePointer() {
        stubRate(aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\":\"high\"}"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.INVALID_OUTPUT);
        assertThat(outcome.reason()).startsWith("response does not match the output schema at /rate:");
        assertThat(outcome.outputs()).isNull();
    }

    @Test
    void aJsonResponseThatIsNotJsonIsRejected() {
        stubRate(aResponse().withHeader("Content-Type", "application/json").withBody("{rate: oops"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.INVALID_OUTPUT);
        assertThat(outcome.reason()).contains("not valid JSON");
    }

    @Test
    void aRedirectToAnotherHostIsRefusedAndNeverFollowed() {
        otherHost.stubFor(get(anyUrl()).willReturn(aResponse().withBody("{\"rate\":9}")));
        // same machine, other host name: the approval named 127.0.0.1 only
        stubRate(aResponse().withStatus(302).withHeader("Location", "http://localhost:" + otherHost.port() + "/steal"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.httpStatus()).isEqualTo(302);
        assertThat(outcome.reason()).startsWith("redirect to localhost refused: localhost is not an approved host");
        assertThat(otherHost.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    @Test
    void aSameHostRedirectIsFollowed() {
        stubRate(aResponse().withStatus(307).withHeader("Location", "/v2/rate?from=EUR&amount=10"));
        server.stubFor(get(urlPathEqualTo("/v2/rate")).willReturn(aResponse().withBody("{\"rate\":2}")));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(outcome.outputs().get("rate").asInt()).isEqualTo(2);
        assertThat(outcome.request().url()).endsWith("/v2/rate?from=EUR&amount=10");
    }

    @Test
    void endlessRedirectsStop() {
        stubRate(aResponse().withStatus(302).withHeader("Location", "/rate?from=EUR&amount=10"));

        ExecutionOutcome outcome = callRate(base(server), 2_000, 0);

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.HTTP_STATUS);
        assertThat(outcome.reason()).isEqualTo("too many redirects (more than 3)");
        assertThat(server.findAll(anyRequestedFor(anyUrl()))).hasSize(4);
    }

    @Test
    void aPrivateAddressIsRefusedUnlessPrivateNetworksAreAllowed() {
        stubRate(aResponse().withBody("{\"rate\":1}"));

        ExecutionOutcome outcome = executor.execute(rateTool(base(server), 2_000, 0),
                inputs("{'from':'EUR','amount':10}"), SecretResolver.none(), ExecutionLimits.production());

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.reason()).isEqualTo("127.0.0.1 resolves to 127.0.0.1, a loopback address; "
                + "private networks are not allowed");
        assertThat(server.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    @Test
    void aHostNameThatResolvesToLoopbackIsRefusedToo() {
        ExecutionOutcome outcome = executor.execute(rateTool("http://localhost:" + server.port(), 2_000, 0),
                inputs("{'from':'EUR','amount':10}"), SecretResolver.none(), ExecutionLimits.production());

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.DESTINATION_REFUSED);
        assertThat(outcome.reason()).startsWith("localhost resolves to ").contains("loopback");
    }

    @Test
    void aRefusedConnectionIsAConnectionFailure() {
        int closedPort = otherHost.port();
        otherHost.stop();
        try {
            ExecutionOutcome outcome = callRate("http://127.0.0.1:" + closedPort, 2_000, 0);
            assertThat(outcome.failureKind()).isEqualTo(FailureKind.CONNECTION);
            assertThat(outcome.reason()).isEqualTo("connection refused by 127.0.0.1");
        } finally {
            otherHost = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));
            otherHost.start();
        }
    }

    @Test
    void aHeadCallSucceedsWithoutABodyEvenWhenTheOperationDeclaresOne() {
        server.stubFor(com.github.tomakehurst.wiremock.client.WireMock.head(urlPathEqualTo("/rate"))
                .willReturn(aResponse().withHeader("Content-Type", "application/json")));
        ToolManifest get = rateTool(base(server), 2_000, 0);
        ToolManifest head = tool(new dev.toolsmith.contracts.tool.HttpBinding("HEAD", base(server), "/rate",
                get.binding().parameters(), BodyEncoding.NONE, AuthBinding.none(), 2_000, 0), RATE_INPUT, RATE_OUTPUT);

        ExecutionOutcome outcome = executor.execute(head, inputs("{'from':'EUR','amount':10}"), SecretResolver.none(),
                ExecutionLimits.localDevelopment());

        assertThat(outcome.succeeded()).as(outcome.reason()).isTrue();
        assertThat(outcome.outputs().isNull()).isTrue();
    }

    @Test
    void aBindingWithoutServerUrlSendsNothing() {
        ExecutionOutcome outcome = executor.execute(rateTool(null, 2_000, 0), inputs("{'from':'EUR','amount':10}"),
                SecretResolver.none(), ExecutionLimits.localDevelopment());

        assertThat(outcome.failureKind()).isEqualTo(FailureKind.INVALID_BINDING);
        assertThat(outcome.reason()).isEqualTo("the binding has no server URL");
    }

    private void stubRate(com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder response) {
        server.stubFor(get(urlPathEqualTo("/rate")).willReturn(response));
    }

    private ExecutionOutcome callRate(String serverUrl, int timeoutMs, long maxBytes) {
        return executor.execute(rateTool(serverUrl, timeoutMs, maxBytes), inputs("{'from':'EUR','amount':10}"),
                SecretResolver.none(), ExecutionLimits.localDevelopment());
    }

    static ToolManifest rateTool(String serverUrl, int timeoutMs, long maxBytes) {
        List<ParameterBinding> parameters = List.of(
                new ParameterBinding("from", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("amount", null, ParameterLocation.QUERY, null, null, true));
        return tool(binding("GET", serverUrl, "/rate", parameters, BodyEncoding.NONE, AuthBinding.none(), timeoutMs,
                maxBytes), RATE_INPUT, RATE_OUTPUT);
    }
}
