package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A tool an admin retired from the catalog ({@code plugin-status} RETIRED) is forgotten by the registry, so
 * its verb is free: the next approved tool with that verb runs, instead of being ACTIVE in the catalog and
 * refused here (catalog and registry would disagree). A disabled tool keeps its verb (it may come back).
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class RetiredPluginsTest {

    static WireMockServer api;

    @Inject
    PluginRegistry registry;

    @BeforeAll
    static void startApi() {
        api = WrappedPlugins.startApi();
    }

    @AfterAll
    static void stopApi() {
        api.stop();
    }

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
}
