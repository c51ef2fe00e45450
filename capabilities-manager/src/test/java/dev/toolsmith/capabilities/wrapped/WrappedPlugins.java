package dev.toolsmith.capabilities.wrapped;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Wrapped plugins for the tests: a manifest whose API is a local WireMock, registered the real way (a
 * {@code plugin-built} event on Kafka), and steps run through the real REST door as a planner.
 */
public final class WrappedPlugins {

    /** API keys of src/test/resources/application.properties: caller names alice (admin), victor, planner-a. */
    public static final String ADMIN = "admin-key";
    public static final String VIEWER = "viewer-key";
    public static final String PLANNER = "planner-key";
    public static final String PLANNER_NAME = "planner-a";

    /** {"rate": number} required: what the test APIs answer. */
    public static final JsonNode RATE_OUTPUT = Steps.json(
            "{\"type\":\"object\",\"required\":[\"rate\"],\"properties\":{\"rate\":{\"type\":\"number\"}}}");
    public static final JsonNode CASE_INPUT = Steps.json(
            "{\"type\":\"object\",\"properties\":{\"case\":{\"type\":\"string\"}}}");

    private WrappedPlugins() {
    }

    public static WireMockServer startApi() {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        return server;
    }

    public static String base(WireMockServer server) {
        return "http://127.0.0.1:" + server.port();
    }

    /** GET {base}/rate?case={case}, with an optional auth binding and health probe. */
    public static ToolManifest rateTool(String toolId, String verb, WireMockServer api, AuthBinding auth, int timeoutMs,
            long maxBytes, HealthProbe probe) {
        HttpBinding binding = new HttpBinding("GET", base(api), "/rate",
                List.of(new ParameterBinding("case", null, ParameterLocation.QUERY, null, null, false)), null, auth,
                timeoutMs, maxBytes);
        return new ToolManifest(toolId, verb, "Rate " + verb, "Looks up a rate for " + verb, ToolSourceType.OPENAPI,
                "test", "finance", List.of("test"), CASE_INPUT, RATE_OUTPUT, Risk.READ_ONLY, binding, probe, 1, null);
    }

    /** A health probe: GET {base}{path} every {@code intervalSeconds}. */
    public static HealthProbe probe(WireMockServer api, String path, int intervalSeconds) {
        return new HealthProbe(new HttpBinding("GET", base(api), path, List.of(), null, null, 0, 0), Map.of(),
                intervalSeconds, null);
    }

    /** Publishes the plugin on plugin-built and waits until the registry serves it with this policy. */
    public static void register(PluginRegistry registry, ToolManifest manifest, UsagePolicy policy) {
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_BUILT, manifest.id(), TestApprovals.built(manifest, policy, 1,
                    new VerificationReport(true, List.of(), 5)));
        }
        // compared as policies: the stored JSON may spell 0.25 or 2 differently from the one sent
        await().atMost(Duration.ofSeconds(30)).until(() -> registry.byToolId(manifest.id())
                .filter(p -> Objects.equals(policyOf(p.policy()), policy)).isPresent());
    }

    private static UsagePolicy policyOf(JsonNode stored) {
        try {
            return stored == null || stored.isNull() ? null : Steps.CODEC.mapper().treeToValue(stored, UsagePolicy.class);
        } catch (Exception e) {
            throw new AssertionError("unreadable stored policy " + stored, e);
        }
    }

    public static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Runs a step through POST /steps as the key's caller; polls GET /steps/{id} if it is still running. */
    public static StepResult runStep(String apiKey, String verb, Map<String, Object> inputs) {
        String stepId = id("step");
        Map<String, StepInput> given = new LinkedHashMap<>();
        inputs.forEach((name, value) -> given.put(name, Steps.value(value)));
        PlanStep step = new PlanStep(stepId, id("plan"), verb, null, given, null, null);
        Response response = given().header("X-API-Key", apiKey).contentType("application/json")
                .body(Steps.CODEC.mapper().valueToTree(step).toString()).post("/steps");
        if (response.statusCode() == 200) {
            return read(response);
        }
        if (response.statusCode() != 202) {
            throw new AssertionError("POST /steps answered " + response.statusCode() + ": " + response.asString());
        }
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            Response polled = given().header("X-API-Key", apiKey).get("/steps/" + stepId);
            return polled.statusCode() == 200 ? read(polled) : null;
        }, Objects::nonNull);
    }

    private static StepResult read(Response response) {
        try {
            return Steps.CODEC.mapper().readValue(response.asString(), StepResult.class);
        } catch (Exception e) {
            throw new AssertionError("not a step result: " + response.asString(), e);
        }
    }
}
