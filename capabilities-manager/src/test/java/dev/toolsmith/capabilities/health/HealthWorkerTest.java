package dev.toolsmith.capabilities.health;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.ADMIN;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.VIEWER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.probe;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.rateTool;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.runStep;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.registry.PluginStore;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The health worker end to end against a WireMock API: a tool that starts failing is disabled and
 * announced on plugin-status (which the librarian follows to hide it from search) with an admin
 * notification; it is re-enabled after M successful probes once it recovers. Admins disable, enable and
 * probe by hand.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class HealthWorkerTest {

    static WireMockServer api;

    @Inject
    PluginStatusChanges statusChanges;

    @Inject
    PluginRegistry registry;

    @Inject
    HealthWorker worker;

    @Inject
    PluginStore plugins;

    @Inject
    HealthStore health;

    private final ContractCodec codec = new ContractCodec();

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

    private static void healthAnswers(String path, int status) {
        api.stubFor(get(urlPathEqualTo(path)).willReturn(aResponse().withStatus(status).withBody("{}")));
    }

    private static ConsumerRecord<String, byte[]> awaitStatus(KafkaTestClient kafka, KafkaTestClient.Reader reader,
            String toolId, PluginStatus status) {
        List<ConsumerRecord<String, byte[]>> found = reader.awaitMatching(r -> toolId.equals(r.key())
                && statusOf(kafka, r).status() == status, Duration.ofSeconds(60));
        assertThat(found).as("plugin-status " + status + " for " + toolId).isNotEmpty();
        return found.get(0);
    }

    private static PluginStatusChanged statusOf(KafkaTestClient kafka, ConsumerRecord<String, byte[]> record) {
        return kafka.codec().payload(kafka.codec().openEnvelope(record.value()), PluginStatusChanged.class);
    }

    @Test
    void aToolThatStartsFailingIsDisabledAndAnnouncedThenReEnabledAfterItRecovers() {
        String toolId = "flaky-api.rate";
        String verb = "LOOK_UP_FLAKY_RATE";
        registerProbed(toolId, verb, "/health-flaky", 1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                .get("/plugins/" + toolId).then().statusCode(200).body("health.lastProbeOk", equalTo(true)));

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader statuses = kafka.reader(Topics.PLUGIN_STATUS);
                KafkaTestClient.Reader notifications = kafka.reader(Topics.NOTIFICATIONS)) {
            healthAnswers("/health-flaky", 503);

            PluginStatusChanged disabled = statusOf(kafka, awaitStatus(kafka, statuses, toolId, PluginStatus.DISABLED));
            assertThat(disabled.reason()).contains("3 consecutive failed health probes", "HTTP 503");
            assertThat(disabled.changedBy()).isEqualTo("health-worker");
            List<ConsumerRecord<String, byte[]>> alerts = notifications.awaitMatching(r -> {
                Notification n = kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class);
                return n.kind() == Notification.Kind.PLUGIN_DISABLED && toolId.equals(n.subjectId());
            }, Duration.ofSeconds(20));
            assertThat(alerts).hasSize(1);
            // disabled here too: the step is refused, the API is not called for it
            int before = api.countRequestsMatching(getRequestedFor(urlPathEqualTo("/rate")).build()).getCount();
            StepResult refused = runStep(PLANNER, verb, Map.of("case", "x"));
            assertThat(refused.status()).isEqualTo(StepStatus.FAILED);
            assertThat(refused.error()).contains("disabled");
            assertThat(api.countRequestsMatching(getRequestedFor(urlPathEqualTo("/rate")).build()).getCount())
                    .isEqualTo(before);
            given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                    .body("status", equalTo("DISABLED")).body("health.disabledBy", equalTo("HEALTH"))
                    .body("statusHistory[0].status", equalTo("DISABLED"))
                    .body("healthHistory.size()", greaterThanOrEqualTo(4));

            // still probed while disabled; back after 2 consecutive successes
            healthAnswers("/health-flaky", 200);
            PluginStatusChanged enabled = statusOf(kafka, awaitStatus(kafka, statuses, toolId, PluginStatus.ENABLED));
            assertThat(enabled.reason()).isEqualTo("2 consecutive successful health probes");
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(runStep(PLANNER, verb, Map.of("case", "y")).status()).isEqualTo(StepStatus.SUCCEEDED));
    }

    @Test
    void theHealthWorkerNeverReEnablesWhatAnAdminDisabledEvenOnAStaleDecision() {
        String toolId = "admin-held-api.rate";
        registerProbed(toolId, "LOOK_UP_ADMIN_HELD_RATE", "/health-admin-held", 3_600);
        given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/disable").then().statusCode(200);
        // a probe that read the row before the admin's disable decides to enable: refused in the same statement
        boolean changed = ReactiveBridge.await(() -> statusChanges.change(toolId, PluginStatus.ENABLED,
                "2 consecutive successful health probes", PluginStatusChanges.Actor.HEALTH, "health-worker"));
        assertThat(changed).isFalse();
        given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                .body("status", equalTo("DISABLED")).body("health.disabledBy", equalTo("ADMIN"));
        // the admin's own enable still works
        given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/enable").then().statusCode(200);
        given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                .body("status", equalTo("ENABLED"));
    }

    @Test
    void aNewVerifiedBuildLiftsAHealthDisableButNotAnAdminsDisable() {
        String toolId = "rebuilt-api.rate";
        String verb = "LOOK_UP_REBUILT_RATE";
        healthAnswers("/health-rebuilt", 503);
        ToolManifest failing = rateTool(toolId, verb, api, null, 1_000, 0, probe(api, "/health-rebuilt", 1));
        register(registry, failing, null);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader statuses = kafka.reader(Topics.PLUGIN_STATUS)) {
            awaitStatus(kafka, statuses, toolId, PluginStatus.DISABLED);

            // the admin approves the tool again (say, its API moved and the new spec names the new host)
            healthAnswers("/health-rebuilt", 200);
            ToolManifest rebuilt = rateTool(toolId, verb, api, null, 2_000, 0, probe(api, "/health-rebuilt", 3_600));
            kafka.send(Topics.PLUGIN_BUILT, toolId, TestApprovals.built(rebuilt, null, 2,
                    new VerificationReport(true, List.of(), 5)));
            PluginStatusChanged enabled = statusOf(kafka, awaitStatus(kafka, statuses, toolId, PluginStatus.ENABLED));
            assertThat(enabled.reason()).isEqualTo("version 2 was approved and verified");

            // an admin's disable is a decision: a new build does not overrule it
            given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/disable").then().statusCode(200);
            ToolManifest third = rateTool(toolId, verb, api, null, 3_000, 0, probe(api, "/health-rebuilt", 3_600));
            kafka.send(Topics.PLUGIN_BUILT, toolId, TestApprovals.built(third, null, 3,
                    new VerificationReport(true, List.of(), 5)));
            await().atMost(Duration.ofSeconds(30)).until(() -> registry.byToolId(toolId)
                    .filter(p -> p.manifest().binding().timeoutMs() == 3_000).isPresent());
            given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                    .body("status", equalTo("DISABLED")).body("health.disabledBy", equalTo("ADMIN"));
        }
    }

    @Test
    void adminsDisableEnableAndProbeByHandAndAnAdminsDisableSticks() {
        String toolId = "manual-api.rate";
        String verb = "LOOK_UP_MANUAL_RATE";
        // probed once at registration, then hourly: the probes below are the admin's
        registerProbed(toolId, verb, "/health-manual", 3_600);

        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader statuses = kafka.reader(Topics.PLUGIN_STATUS)) {
            given().post("/plugins/" + toolId + "/disable").then().statusCode(401);
            given().header("X-API-Key", ADMIN).contentType("application/json")
                    .body("{\"reason\": \"vendor maintenance window\"}").post("/plugins/" + toolId + "/disable")
                    .then().statusCode(200).body("status", equalTo("DISABLED"));
            PluginStatusChanged disabled = statusOf(kafka, awaitStatus(kafka, statuses, toolId, PluginStatus.DISABLED));
            assertThat(disabled.reason()).isEqualTo("vendor maintenance window");
            assertThat(disabled.changedBy()).isEqualTo("admin alice");

            for (int i = 0; i < 3; i++) {
                given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/probe").then().statusCode(200)
                        .body("ok", equalTo(true)).body("status", equalTo("DISABLED")).body("change", equalTo("NONE"));
            }
            given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then()
                    .body("status", equalTo("DISABLED")).body("health.disabledBy", equalTo("ADMIN"))
                    .body("statusHistory[0].by", equalTo("admin alice"));

            given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/enable").then().statusCode(200)
                    .body("status", equalTo("ENABLED"));
            awaitStatus(kafka, statuses, toolId, PluginStatus.ENABLED);
        }
        assertThat(runStep(PLANNER, verb, Map.of("case", "z")).status()).isEqualTo(StepStatus.SUCCEEDED);
        given().header("X-API-Key", ADMIN).post("/plugins/internal.evaluate-expression/probe").then().statusCode(400);
        given().header("X-API-Key", ADMIN).post("/plugins/no-such.tool/probe").then().statusCode(404);
    }

    @Test
    void aToolAnAdminDisabledIsNotProbedUntilAnAdminEnablesIt() throws Exception {
        String toolId = "switched-off-api.rate";
        // probed every second while it serves
        registerProbed(toolId, "LOOK_UP_SWITCHED_OFF_RATE", "/health-switched-off", 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> probesOf("/health-switched-off") >= 2);

        given().header("X-API-Key", ADMIN).contentType("application/json")
                .body("{\"reason\": \"its server URL is the cloud metadata service\"}")
                .post("/plugins/" + toolId + "/disable").then().statusCode(200).body("status", equalTo("DISABLED"));
        Thread.sleep(1_000); // a probe claimed just before the disable may still be on its way
        int afterDisable = probesOf("/health-switched-off");
        Thread.sleep(4_000); // four intervals of the manifest's probe, sixteen worker ticks

        assertThat(probesOf("/health-switched-off")).as("probes of a tool an admin disabled").isEqualTo(afterDisable);
        given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                .body("status", equalTo("DISABLED")).body("health.disabledBy", equalTo("ADMIN"));

        given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/enable").then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> probesOf("/health-switched-off") > afterDisable);
    }

    @Test
    void aProbeOfTheCloudMetadataServiceIsRefusedAlthoughPrivateNetworksAreAllowed() {
        // this profile allows private networks (toolsmith.sandbox.allow-private-networks=true), as ./toolsmith up does
        String toolId = "metadata-probe-api.rate";
        HealthProbe metadataProbe = new HealthProbe(new HttpBinding("GET", "http://169.254.169.254",
                "/latest/meta-data/iam/security-credentials", List.of(), null, null, 0, 0), Map.of(), 3_600, null);
        register(registry, rateTool(toolId, "LOOK_UP_METADATA_PROBE_RATE", api, null, 1_000, 0, metadataProbe), null);

        given().header("X-API-Key", ADMIN).post("/plugins/" + toolId + "/probe").then().statusCode(200)
                .body("ok", equalTo(false))
                .body("reason", equalTo("destination 169.254.169.254 is a link-local/cloud metadata address, "
                        + "refused in every mode"));
    }

    private static int probesOf(String path) {
        return api.countRequestsMatching(getRequestedFor(urlPathEqualTo(path)).build()).getCount();
    }

    @Test
    void thresholdsAreSetPerPluginAndBadOnesAreRefusedNamingTheField() {
        String toolId = "tuned-api.rate";
        registerProbed(toolId, "LOOK_UP_TUNED_RATE", "/health-tuned", 3_600);

        // probed once at registration, then not for an hour (the manifest's interval)
        await().atMost(Duration.ofSeconds(30)).until(() -> nextProbeAt(toolId)
                .isAfter(java.time.Instant.now().plusSeconds(3_000)));

        given().header("X-API-Key", ADMIN).contentType("application/json").body("{\"errorRateThreshold\": 2}")
                .put("/plugins/" + toolId + "/health-thresholds").then().statusCode(400)
                .body("error", containsString("errorRateThreshold"));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader notifications = kafka.reader(Topics.NOTIFICATIONS)) {
            given().header("X-API-Key", ADMIN).contentType("application/json")
                    .body("{\"failuresToDisable\": 5, \"intervalSeconds\": 30}")
                    .put("/plugins/" + toolId + "/health-thresholds").then().statusCode(200)
                    .body("failuresToDisable", equalTo(5)).body("intervalSeconds", equalTo(30))
                    .body("successesToEnable", equalTo(2));
            // announced with who and before -> after, for the librarian's audit log
            List<ConsumerRecord<String, byte[]>> announced = notifications.awaitMatching(r -> {
                Notification n = kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class);
                return n.kind() == Notification.Kind.HEALTH_THRESHOLDS_CHANGED && toolId.equals(n.subjectId());
            }, Duration.ofSeconds(20));
            assertThat(announced).hasSize(1);
            Notification change = kafka.codec().payload(kafka.codec().openEnvelope(announced.get(0).value()),
                    Notification.class);
            assertThat(change.changedBy()).startsWith("admin ");
            assertThat(change.before()).containsEntry("intervalSeconds", 3_600).containsEntry("successesToEnable", 2);
            assertThat(change.after()).containsEntry("intervalSeconds", 30).containsEntry("failuresToDisable", 5);
            assertThat(change.message()).contains("intervalSeconds 3600 → 30").contains("failuresToDisable")
                    .doesNotContain("successesToEnable");

            // saving the same overrides again stores nothing and announces nothing: the next announcement is
            // the real change after it, and its "before" is what the first save stored
            given().header("X-API-Key", ADMIN).contentType("application/json")
                    .body("{\"intervalSeconds\": 30, \"failuresToDisable\": 5}")
                    .put("/plugins/" + toolId + "/health-thresholds").then().statusCode(200)
                    .body("failuresToDisable", equalTo(5));
            given().header("X-API-Key", ADMIN).contentType("application/json")
                    .body("{\"failuresToDisable\": 6, \"intervalSeconds\": 30}")
                    .put("/plugins/" + toolId + "/health-thresholds").then().statusCode(200)
                    .body("failuresToDisable", equalTo(6));
            java.util.function.Function<ConsumerRecord<String, byte[]>, Notification> decode =
                    r -> kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class);
            java.util.function.Predicate<Notification> ofThisTool =
                    n -> n.kind() == Notification.Kind.HEALTH_THRESHOLDS_CHANGED && toolId.equals(n.subjectId());
            notifications.awaitMatching(r -> ofThisTool.test(decode.apply(r))
                    && Integer.valueOf(6).equals(decode.apply(r).after().get("failuresToDisable")), Duration.ofSeconds(20));
            List<Notification> changes = notifications.awaitMatching(r -> ofThisTool.test(decode.apply(r)), Duration.ZERO)
                    .stream().map(decode).sorted(java.util.Comparator.comparing(Notification::createdAt)).toList();
            assertThat(changes).as("the unchanged save is not announced").hasSize(2);
            assertThat(changes.get(1).before()).containsEntry("failuresToDisable", 5);
            assertThat(changes.get(1).after()).containsEntry("failuresToDisable", 6);
        }
        assertThat(nextProbeAt(toolId)).as("the shorter interval applies to the next probe, not the one after")
                .isBefore(java.time.Instant.now().plusSeconds(31));
        given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                .body("thresholds.failuresToDisable", equalTo(6))
                .body("manifest.healthProbe.intervalSeconds", equalTo(3_600));
        given().header("X-API-Key", VIEWER).get("/plugins").then().statusCode(200)
                .body("find { it.toolId == '" + toolId + "' }.type", equalTo("WRAPPED_HTTP"));
    }

    @Test
    void aShorterIntervalSavedWhileAProbeIsInFlightIsNotUndoneByThatProbe() throws Exception {
        String toolId = "slow-probe-api.rate";
        registerProbed(toolId, "LOOK_UP_SLOW_PROBE_RATE", "/health-slow", 3_600);
        await().atMost(Duration.ofSeconds(30)).until(() -> nextProbeAt(toolId)
                .isAfter(java.time.Instant.now().plusSeconds(3_000)));

        // the next probe (this test's, by hand) answers in 4 s; the health worker's later ones at once. The admin
        // saves a 1 s interval while the slow probe is in flight, after it has read the manifest's hour, and the
        // worker's quick probes on the new interval finish before it does.
        api.stubFor(get(urlPathEqualTo("/health-slow")).inScenario("slow-probe").whenScenarioStateIs(Scenario.STARTED)
                .willReturn(aResponse().withStatus(200).withBody("{}").withFixedDelay(4_000))
                .willSetStateTo("answered"));
        api.stubFor(get(urlPathEqualTo("/health-slow")).inScenario("slow-probe").whenScenarioStateIs("answered")
                .willReturn(aResponse().withStatus(200).withBody("{}")));
        int probesBefore = probesOf("/health-slow");
        java.util.concurrent.CompletableFuture<java.util.Optional<ProbeReport>> inFlight =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> worker.probe(toolId, "test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> probesOf("/health-slow") > probesBefore);
        given().header("X-API-Key", ADMIN).contentType("application/json").body("{\"intervalSeconds\": 1}")
                .put("/plugins/" + toolId + "/health-thresholds").then().statusCode(200);
        assertThat(inFlight.get(30, java.util.concurrent.TimeUnit.SECONDS)).isPresent();

        int probesAfter = probesOf("/health-slow");
        await("probed again on the admin's 1 s interval").atMost(Duration.ofSeconds(15))
                .until(() -> probesOf("/health-slow") >= probesAfter + 2);
    }

    /** Registers a wrapped rate tool whose health probe, at {@code path}, answers 200 every {@code interval} s. */
    @Test
    void aPluginCommittedButNotYetInTheRegistrySnapshotIsProbedNotPostponed() {
        // the gap a registration leaves between committing its row and the snapshot taking it in: a probe claimed
        // then used to push the plugin's first probe out by the default interval (60 s), so a failing API stayed
        // in service for a minute more
        String toolId = "unseen-api.rate";
        healthAnswers("/health-unseen", 503);
        ToolManifest manifest = rateTool(toolId, "LOOK_UP_UNSEEN_RATE", api, null, 1_000, 0,
                probe(api, "/health-unseen", 3_600));
        String hash = ContentHash.of(manifest, codec.mapper());
        Plugin plugin = new Plugin(toolId, manifest.verb(), PluginType.WRAPPED_HTTP, PluginStatus.ENABLED, null, 1,
                hash, manifest.withVersion(1, hash), null);
        ReactiveBridge.await(() -> Panache.withTransaction(() -> plugins.upsertIfChanged(plugin, 1)));
        health.trackNewPlugins();

        ProbeReport report = worker.probe(toolId, "test").orElseThrow(
                () -> new AssertionError("the committed plugin was not probed"));
        assertThat(report.ok()).isFalse();
        assertThat(report.reason()).contains("HTTP 503");
        assertThat(registry.byToolId(toolId)).isPresent();
    }

    private void registerProbed(String toolId, String verb, String path, int intervalSeconds) {
        healthAnswers(path, 200);
        register(registry, rateTool(toolId, verb, api, null, 1_000, 0, probe(api, path, intervalSeconds)), null);
    }

    private static java.time.Instant nextProbeAt(String toolId) {
        String at = given().header("X-API-Key", VIEWER).get("/plugins/" + toolId).then().statusCode(200)
                .extract().path("health.nextProbeAt");
        return at == null ? java.time.Instant.EPOCH : java.time.Instant.parse(at);
    }
}
