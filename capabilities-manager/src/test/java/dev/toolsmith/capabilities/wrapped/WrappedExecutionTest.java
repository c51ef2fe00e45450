package dev.toolsmith.capabilities.wrapped;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.VIEWER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.rateTool;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.runStep;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Wrapped tools run through the shared sandboxed executor from a real step (REST door, registry fed by
 * plugin-built on Kafka): the API's faults become FAILED results with the status and a short reason, a
 * redirect to another host is refused, and the policy's secret reaches the API but never a result or a
 * response of ours.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class WrappedExecutionTest {

    private static final String FAULTS_TOOL = "faults-api.rate";
    private static final String FAULTS_VERB = "LOOK_UP_FAULTY_RATE";
    private static final String SECRET_TOOL = "keyed-api.rate";
    private static final String SECRET_VERB = "LOOK_UP_KEYED_RATE";
    private static final String API_KEY = "s3cret-api-key-for-tests";

    static WireMockServer api;
    static WireMockServer otherHost;
    static boolean registered;

    @Inject
    PluginRegistry registry;

    @ConfigProperty(name = "toolsmith.secrets.key")
    String secretsKey;

    @BeforeAll
    static void startApis() {
        api = WrappedPlugins.startApi();
        otherHost = WrappedPlugins.startApi();
    }

    @AfterAll
    static void stopApis() {
        api.stop();
        otherHost.stop();
    }

    @BeforeEach
    void registerOnce() {
        api.resetRequests();
        otherHost.resetAll();
        if (registered) {
            return;
        }
        // 400 ms to answer, 1 KB at most; no probe: these faults are the point, not a health signal
        register(registry, rateTool(FAULTS_TOOL, FAULTS_VERB, api, null, 400, 1024, null), null);
        String sealed = AesGcmSecretCipher.fromBase64Key(secretsKey).encrypt(API_KEY);
        register(registry, rateTool(SECRET_TOOL, SECRET_VERB, api,
                new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"), 2_000, 0, null),
                new UsagePolicy(null, null, null, null, Map.of("fx-key", sealed)));
        registered = true;
    }

    private static void stubCase(String name, com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder answer) {
        api.stubFor(get(urlPathEqualTo("/rate")).withQueryParam("case", equalTo(name)).willReturn(answer));
    }

    private static StepResult faults(String name) {
        return runStep(PLANNER, FAULTS_VERB, Map.of("case", name));
    }

    @Test
    void aGoodAnswerIsTheStepsOutputs() {
        stubCase("ok", aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\": 1.25}"));

        StepResult result = faults("ok");

        assertThat(result.status()).as(result.error()).isEqualTo(StepStatus.SUCCEEDED);
        assertThat(result.outputs().get("rate").doubleValue()).isEqualTo(1.25);
        assertThat(result.servedBy().toolId()).isEqualTo(FAULTS_TOOL);
    }

    @Test
    void aDelayBeyondTheTimeoutFailsWithTheTimeout() {
        stubCase("slow", aResponse().withFixedDelay(3_000).withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 1}"));

        StepResult result = faults("slow");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains(FAULTS_TOOL, "TIMEOUT", "400 ms");
    }

    @Test
    void aServerErrorFailsWithTheStatusAndAShortReason() {
        stubCase("boom", aResponse().withStatus(500).withBody("upstream exploded"));

        StepResult result = faults("boom");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("HTTP 500", "upstream exploded");
    }

    @Test
    void aConnectionResetFailsAsAConnectionProblem() {
        stubCase("reset", aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER));

        StepResult result = faults("reset");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("CONNECTION");
    }

    @Test
    void anOversizedBodyIsCutOff() {
        stubCase("huge", aResponse().withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 1, \"padding\": \"" + "x".repeat(8_000) + "\"}"));

        StepResult result = faults("huge");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("RESPONSE_TOO_LARGE", "1 KB");
    }

    @Test
    void anAnswerThatBreaksTheOutputSchemaFailsNamingTheField() {
        stubCase("odd", aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\": \"high\"}"));

        StepResult result = faults("odd");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("INVALID_OUTPUT", "/rate");
    }

    @Test
    void aRedirectToAnotherHostIsRefusedAndThatHostIsNeverCalled() {
        otherHost.stubFor(get(anyUrl()).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 9}")));
        // "localhost" is not the approved host 127.0.0.1, though it is the same machine
        stubCase("away", aResponse().withStatus(302)
                .withHeader("Location", "http://localhost:" + otherHost.port() + "/rate?case=away"));

        StepResult result = faults("away");

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("DESTINATION_REFUSED", "redirect to localhost refused");
        otherHost.verify(0, anyRequestedFor(anyUrl()));
    }

    @Test
    void thePolicysSecretReachesTheApiButNoResultAndNoResponseOfOurs() {
        api.stubFor(get(urlPathEqualTo("/rate")).withHeader("X-Api-Key", equalTo(API_KEY))
                .willReturn(aResponse().withHeader("Content-Type", "application/json").withBody("{\"rate\": 2}")));
        api.stubFor(get(urlPathEqualTo("/rate")).withQueryParam("case", equalTo("echo"))
                .withHeader("X-Api-Key", equalTo(API_KEY))
                .willReturn(aResponse().withStatus(401).withBody("key " + API_KEY + " is not valid for this plan")));

        StepResult ok = runStep(PLANNER, SECRET_VERB, Map.of("case", "plain"));
        StepResult echoed = runStep(PLANNER, SECRET_VERB, Map.of("case", "echo"));

        assertThat(ok.status()).as(ok.error()).isEqualTo(StepStatus.SUCCEEDED);
        api.verify(getRequestedFor(urlPathEqualTo("/rate")).withHeader("X-Api-Key", equalTo(API_KEY)));
        assertThat(echoed.status()).isEqualTo(StepStatus.FAILED);
        assertThat(echoed.error()).contains("HTTP 401").doesNotContain(API_KEY);
        String details = given().header("X-API-Key", VIEWER).get("/plugins/" + SECRET_TOOL).then().statusCode(200)
                .body("policy.secretNames", hasItem("fx-key")).extract().asString();
        assertThat(details).doesNotContain(API_KEY).doesNotContain("v1:");
    }

    @Test
    void withoutTheKeyAToolThatNeedsASecretSendsNothing() {
        String toolId = "keyless-api.rate";
        String verb = "LOOK_UP_KEYLESS_RATE";
        register(registry, rateTool(toolId, verb, api,
                new AuthBinding(AuthBinding.Scheme.BEARER, null, "missing"), 1_000, 0, null), null);

        StepResult result = runStep(PLANNER, verb, Map.of("case", "x"));

        assertThat(result.status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.error()).contains("SECRET_UNAVAILABLE", "missing");
        api.verify(0, anyRequestedFor(anyUrl()));
    }
}
