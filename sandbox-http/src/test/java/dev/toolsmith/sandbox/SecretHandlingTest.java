package dev.toolsmith.sandbox;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.toolsmith.sandbox.Tools.base;
import static dev.toolsmith.sandbox.Tools.binding;
import static dev.toolsmith.sandbox.Tools.inputs;
import static dev.toolsmith.sandbox.Tools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.AuthBinding.Scheme;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Secrets are decrypted at call time, reach the server where the auth scheme says, and appear nowhere
 * else: not in the outcome, the recorded request, a reason, or the log.
 */
class SecretHandlingTest {

    private static final String SECRET = "sk_live_Zq9!x/y+w=";
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    static WireMockServer server;
    final WrappedToolExecutor executor = new WrappedToolExecutor();
    final AesGcmSecretCipher cipher = new AesGcmSecretCipher(KEY);
    final SecretResolver secrets = new PolicySecretResolver(Map.of("fx-key", cipher.encrypt(SECRET)), cipher);
    final List<String> logLines = new ArrayList<>();
    final Logger executorLog = Logger.getLogger(WrappedToolExecutor.class.getName());
    final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logLines.add(new SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

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
    void setUp() {
        server.resetAll();
        executorLog.setLevel(Level.ALL);
        executorLog.addHandler(capture);
    }

    @AfterEach
    void tearDown() {
        executorLog.removeHandler(capture);
    }

    @Test
    void anApiKeyHeaderCarriesTheDecryptedSecret() throws Exception {
        ExecutionOutcome outcome = call(new AuthBinding(Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"), ok());

        assertThat(onlyRequest().getHeader("X-Api-Key")).isEqualTo(SECRET);
        assertThat(outcome.request().headers().get("X-Api-Key")).containsExactly(RecordedRequest.REDACTED);
        assertNoLeak(outcome);
    }

    @Test
    void anApiKeyInTheQueryIsEncodedOnTheWireAndRedactedInTheRecord() throws Exception {
        ExecutionOutcome outcome = call(new AuthBinding(Scheme.API_KEY_QUERY, "api_key", "fx-key"), ok());

        assertThat(onlyRequest().queryParameter("api_key").firstValue()).isEqualTo(SECRET);
        assertThat(outcome.request().url()).endsWith("/rate?from=EUR&api_key=***");
        assertNoLeak(outcome);
    }

    @Test
    void anApiKeyCookieIsSentBesideOtherCookies() throws Exception {
        ExecutionOutcome outcome = call(new AuthBinding(Scheme.API_KEY_COOKIE, "key", "fx-key"), ok());

        assertThat(onlyRequest().getCookies().get("key").getValue()).isEqualTo(ParameterSerializer.encode(SECRET));
        assertNoLeak(outcome);
    }

    @Test
    void bearerAndBasicSchemesFillTheAuthorizationHeader() throws Exception {
        ExecutionOutcome bearer = call(new AuthBinding(Scheme.BEARER, null, "fx-key"), ok());
        assertThat(onlyRequest().getHeader("Authorization")).isEqualTo("Bearer " + SECRET);
        assertThat(bearer.request().headers().get("Authorization")).containsExactly("Bearer ***");
        assertNoLeak(bearer);

        server.resetRequests();
        ExecutionOutcome basic = call(new AuthBinding(Scheme.BASIC, null, "fx-key"), ok());
        assertThat(onlyRequest().getHeader("Authorization"))
                .isEqualTo("Basic " + Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)));
        assertThat(basic.request().headers().get("Authorization")).containsExactly("Basic ***");
        assertNoLeak(basic);
    }

    @Test
    void aServerThatEchoesTheSecretDoesNotLeakItIntoOutputsOrErrors() throws Exception {
        ExecutionOutcome echoed = call(new AuthBinding(Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"),
                aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\":1,\"echo\":\"" + SECRET + "\"}"));
        assertThat(echoed.succeeded()).isTrue();
        assertThat(echoed.outputs().get("echo").asText()).isEqualTo("***");
        assertNoLeak(echoed);

        ExecutionOutcome error = call(new AuthBinding(Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"),
                aResponse().withStatus(401).withBody("bad key " + SECRET));
        assertThat(error.reason()).isEqualTo("HTTP 401 from 127.0.0.1: bad key ***");
        assertNoLeak(error);
    }

    @Test
    void anUnknownOrUndecryptableSecretStopsTheCallWithoutSendingAndWithoutMaterial() throws Exception {
        ExecutionOutcome unknown = call(new AuthBinding(Scheme.BEARER, null, "other"), ok());
        assertThat(unknown.failureKind()).isEqualTo(FailureKind.SECRET_UNAVAILABLE);
        assertThat(unknown.reason()).isEqualTo("the policy has no secret named 'other'");

        SecretResolver wrongKey = new PolicySecretResolver(Map.of("fx-key", cipher.encrypt(SECRET)),
                new AesGcmSecretCipher("fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.US_ASCII)));
        ExecutionOutcome undecryptable = executor.execute(rateTool(new AuthBinding(Scheme.BEARER, null, "fx-key")),
                inputs("{'from':'EUR'}"), wrongKey, ExecutionLimits.localDevelopment());
        assertThat(undecryptable.failureKind()).isEqualTo(FailureKind.SECRET_UNAVAILABLE);
        assertThat(undecryptable.reason()).contains("could not be decrypted");
        assertThat(server.findAll(anyRequestedFor(anyUrl()))).isEmpty();
    }

    private ExecutionOutcome call(AuthBinding auth, com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder response) {
        server.stubFor(any(anyUrl()).willReturn(response));
        return executor.execute(rateTool(auth), inputs("{'from':'EUR'}"), secrets, ExecutionLimits.localDevelopment());
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder ok() {
        return aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\":1}");
    }

    private ToolManifest rateTool(AuthBinding auth) {
        return tool(binding("GET", base(server), "/rate",
                List.of(new ParameterBinding("from", null, ParameterLocation.QUERY, null, null, true)), BodyEncoding.NONE,
                auth, 2_000, 0), null, null);
    }

    private void assertNoLeak(ExecutionOutcome outcome) throws Exception {
        String serialized = new ObjectMapper().writeValueAsString(outcome);
        List<String> forms = List.of(SECRET, ParameterSerializer.encode(SECRET),
                Base64.getEncoder().encodeToString(SECRET.getBytes(StandardCharsets.UTF_8)));
        for (String form : forms) {
            assertThat(serialized).doesNotContain(form);
            assertThat(logLines).noneMatch(line -> line.contains(form));
        }
        assertThat(logLines).as("the executor logs every call at debug level").isNotEmpty();
    }

    private LoggedRequest onlyRequest() {
        List<LoggedRequest> requests = server.findAll(anyRequestedFor(anyUrl()));
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }
}
