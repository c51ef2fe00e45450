package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.TestApprovals;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, findings 1 and 6: what reaches the registry. A {@code plugin-built} event that any client can
 * produce must not register a tool no admin approved: each forged build goes to {@code plugin-built.dlq} with
 * the reason, raises a critical notification, and never reaches the registry; the sealed build of the same
 * tool does. A verb clash is announced, and a retired tool frees its verb.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class ForgedBuildsTest {

    private static final VerificationReport PASSED = new VerificationReport(true, List.of(), 5);

    static WireMockServer api;

    @Inject
    PluginRegistry registry;

    @Inject
    ContractCodec codec;

    @Inject
    AgroalDataSource database;

    @BeforeAll
    static void startApi() {
        api = WrappedPlugins.startApi();
    }

    @AfterAll
    static void stopApi() {
        api.stop();
    }

    @Test
    void aBuildWithoutItsApprovalsSealIsDeadLetteredAnnouncedAndNotRegistered() {
        UsagePolicy limited = new UsagePolicy(null, null, null, List.of(WrappedPlugins.PLANNER_NAME), null);
        ToolManifest unsealedTool = tool("forged-unsealed");
        ToolManifest otherServer = tool("forged-elsewhere");
        ToolManifest openedPolicy = tool("forged-policy");
        ApprovalSeal sealOfOtherServer = TestApprovals.seal(tool(otherServer.id(), "http://127.0.0.2:1"), limited, 1);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLUGIN_BUILT));
                KafkaTestClient.Reader alerts = kafka.reader(Topics.NOTIFICATIONS)) {
            kafka.send(Topics.PLUGIN_BUILT, unsealedTool.id(),
                    new PluginBuilt(unsealedTool.id(), 1, true, unsealedTool, limited, PASSED, null, null));
            kafka.send(Topics.PLUGIN_BUILT, otherServer.id(),
                    new PluginBuilt(otherServer.id(), 1, true, otherServer, limited, PASSED, null, sealOfOtherServer));
            // the approval was for a limited policy; the forger drops the allowed callers
            kafka.send(Topics.PLUGIN_BUILT, openedPolicy.id(), new PluginBuilt(openedPolicy.id(), 1, true, openedPolicy,
                    UsagePolicy.unrestricted(), PASSED, null, TestApprovals.seal(openedPolicy, limited, 1)));

            assertDeadLettered(dlq, unsealedTool.id(), "carries no approval seal");
            assertDeadLettered(dlq, otherServer.id(), "its call (verb, risk, method, server, path or parameters)");
            assertDeadLettered(dlq, openedPolicy.id(), "its usage policy is not the approved one");
            for (String toolId : List.of(unsealedTool.id(), otherServer.id(), openedPolicy.id())) {
                List<ConsumerRecord<String, byte[]>> alert = alerts.awaitMatching(r -> toolId.equals(
                        kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class).subjectId()),
                        Duration.ofSeconds(20));
                assertThat(alert).as("a notification about " + toolId).hasSize(1);
                Notification notification = kafka.codec().payload(kafka.codec().openEnvelope(alert.get(0).value()),
                        Notification.class);
                assertThat(notification.kind()).isEqualTo(Notification.Kind.PLUGIN_REFUSED);
                assertThat(notification.severity()).isEqualTo(Notification.Severity.CRITICAL);
            }
        }
        // the same tool, sealed as approved, registers: the gate refuses forgeries, not builds
        WrappedPlugins.register(registry, openedPolicy, limited);
        assertThat(registry.byToolId(unsealedTool.id())).isEmpty();
        assertThat(registry.byToolId(otherServer.id())).isEmpty();
    }

    @Test
    void anApprovedBuildWhoseVerbAnotherToolServesIsNotRegisteredAndTheAdminsAreTold() {
        ToolManifest first = tool("verb-holder");
        ToolManifest second = WrappedPlugins.rateTool(WrappedPlugins.id("verb-taker"), first.verb(), api,
                AuthBinding.none(), 1000, 10_000, null);
        WrappedPlugins.register(registry, first, null);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader alerts = kafka.reader(Topics.NOTIFICATIONS)) {
            kafka.send(Topics.PLUGIN_BUILT, second.id(), TestApprovals.built(second, null, 1, PASSED));
            List<ConsumerRecord<String, byte[]>> alert = alerts.awaitMatching(r -> second.id().equals(
                    kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class).subjectId()),
                    Duration.ofSeconds(20));
            assertThat(alert).hasSize(1);
            assertThat(kafka.codec().payload(kafka.codec().openEnvelope(alert.get(0).value()), Notification.class)
                    .message()).contains("wants verb " + first.verb() + ", which " + first.id() + " already serves");
        }
        assertThat(registry.byToolId(second.id())).isEmpty();
    }

    @Test
    void aReplayedBuildOfAnOlderApprovalCannotBringBackItsLooserPolicy() {
        ToolManifest tool = tool("replayed");
        UsagePolicy loose = UsagePolicy.unrestricted();
        UsagePolicy tight = new UsagePolicy(null, null, null, List.of(WrappedPlugins.PLANNER_NAME), null);
        PluginBuilt first = TestApprovals.built(tool, loose, 1, PASSED);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLUGIN_BUILT))) {
            kafka.send(Topics.PLUGIN_BUILT, tool.id(), first);
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(tool.id()).isPresent());
            kafka.send(Topics.PLUGIN_BUILT, tool.id(), TestApprovals.built(tool, tight, 2, PASSED));
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(tool.id())
                    .filter(p -> p.policy() != null && p.policy().path("allowedCallers").size() == 1).isPresent());
            kafka.send(Topics.PLUGIN_BUILT, tool.id(), first); // the same sealed event again, as a new delivery
            assertDeadLettered(dlq, tool.id(), "older than version 2 in force");
        }
        assertThat(registry.byToolId(tool.id()).orElseThrow().policy().path("allowedCallers").get(0).asText())
                .isEqualTo(WrappedPlugins.PLANNER_NAME);
    }

    /** A retired tool is forgotten, so its verb is free; a disabled one would keep it (it may come back). */
    @Test
    void aRetiredToolIsForgottenAndFreesItsVerbForTheNextApprovedTool() {
        String verb = "RETIRE_ME_" + WrappedPlugins.id("v").substring(2).toUpperCase();
        ToolManifest old = WrappedPlugins.rateTool(WrappedPlugins.id("retired"), verb, api, AuthBinding.none(), 1000,
                10_000, null);
        ToolManifest successor = WrappedPlugins.rateTool(WrappedPlugins.id("successor"), verb, api, AuthBinding.none(),
                1000, 10_000, null);
        WrappedPlugins.register(registry, old, null);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            kafka.send(Topics.PLUGIN_STATUS, old.id(), new PluginStatusChanged(old.id(), PluginStatus.RETIRED,
                    "retired from the catalog by alice: replaced", "alice", Instant.now()));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(old.id()).isEmpty());
        WrappedPlugins.register(registry, successor, null);
        assertThat(registry.byVerb(verb)).hasValueSatisfying(p -> assertThat(p.toolId()).isEqualTo(successor.id()));
    }

    /**
     * A status event this service emitted is already in the database when it comes back on {@code plugin-status}:
     * applied again, an old echo would undo a newer change (an admin's enable right after a disable read DISABLED
     * until the enable's own event came round). It only reloads the registry; another service's event still applies.
     */
    @Test
    void anEchoOfThisServicesOwnStatusEventDoesNotUndoANewerStatus() throws Exception {
        ToolManifest tool = tool("status-echo");
        WrappedPlugins.register(registry, tool, null);
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            // the librarian suspends it: applied
            kafka.send(Topics.PLUGIN_STATUS, tool.id(), new PluginStatusChanged(tool.id(), PluginStatus.DISABLED,
                    "suspended: its source changed", "librarian", Instant.now()));
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.byToolId(tool.id())
                    .filter(p -> p.status() == PluginStatus.DISABLED).isPresent());
            // an older event of this service's own, enabling it, arrives after that: not applied
            EventEnvelope echo = codec.envelope(new PluginStatusChanged(tool.id(), PluginStatus.ENABLED, null,
                    "admin alice", Instant.now().minusSeconds(5)), "/capabilities-manager", tool.id());
            kafka.send(Topics.PLUGIN_STATUS, tool.id(), echo);
            await().atMost(Duration.ofSeconds(20)).until(() -> processed(echo.id()));
        }
        assertThat(registry.byToolId(tool.id())).hasValueSatisfying(p -> assertThat(p.status())
                .isEqualTo(PluginStatus.DISABLED));
        assertThat(status(tool.id())).isEqualTo("DISABLED");
    }

    private boolean processed(String eventId) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT 1 FROM processed_event WHERE event_id = ?")) {
            s.setString(1, eventId);
            try (ResultSet rows = s.executeQuery()) {
                return rows.next();
            }
        }
    }

    private String status(String toolId) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT status FROM plugin WHERE tool_id = ?")) {
            s.setString(1, toolId);
            try (ResultSet rows = s.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }

    private static void assertDeadLettered(KafkaTestClient.Reader dlq, String toolId, String reason) {
        List<ConsumerRecord<String, byte[]>> records = dlq.awaitMatching(r -> toolId.equals(r.key()),
                Duration.ofSeconds(20));
        assertThat(records).as("dead letter of " + toolId).hasSize(1);
        assertThat(dlq.headersOf(records.get(0)).get("dead-letter-reason")).contains(reason);
    }

    private static ToolManifest tool(String prefix) {
        return tool(WrappedPlugins.id(prefix), null);
    }

    private static ToolManifest tool(String toolId, String server) {
        ToolManifest manifest = WrappedPlugins.rateTool(toolId, toolId.toUpperCase().replace('-', '_'), api,
                AuthBinding.none(), 1000, 10_000, null);
        if (server == null) {
            return manifest;
        }
        var b = manifest.binding();
        return new ToolManifest(manifest.id(), manifest.verb(), manifest.name(), manifest.description(),
                manifest.source(), manifest.namespace(), manifest.domain(), manifest.tags(), manifest.inputSchema(),
                manifest.outputSchema(), manifest.risk(), new dev.toolsmith.contracts.tool.HttpBinding(b.method(), server,
                        b.pathTemplate(), b.parameters(), b.bodyEncoding(), b.auth(), b.timeoutMs(), b.maxResponseBytes()),
                null, 1, null);
    }
}
