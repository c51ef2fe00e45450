package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Another replica's changes reach this one by the refresher alone: rows written straight to the shared
 * database (as that replica's transactions would) are unknown here until {@link RegistryRefresher} runs, and
 * then a new plugin serves its verb, a changed status stops it serving, a learned alias is found, and
 * forgotten rows are forgotten here too.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class RegistryRefresherTest {

    @Inject
    RegistryRefresher refresher;

    @Inject
    PluginRegistry registry;

    @Inject
    AliasBook aliases;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void pluginsStatusesAndAliasesWrittenByAnotherReplicaArriveOnTheNextRefresh() throws Throwable {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10).toUpperCase();
        String toolId = "refresher-" + suffix.toLowerCase();
        String verb = "REFRESHED_UNITS_" + suffix;
        String learnedVerb = VerbNormalizer.normalize("CHANGE_MEASURE_" + suffix); // keys are normalised verbs
        try {
            // another replica registers a plugin (the internal unit converter's manifest under a new id and verb)
            // and learns an alias for it
            update("INSERT INTO plugin (tool_id, verb, plugin_type, status, version, content_hash, manifest) "
                    + "SELECT ?, ?, 'INTERNAL', 'ENABLED', 1, content_hash, manifest FROM plugin "
                    + "WHERE tool_id = 'internal.convert-units'", toolId, verb);
            update("INSERT INTO verb_alias (verb, tool_id, target_verb, confidence, learned_from) "
                    + "VALUES (?, ?, ?, 0.97, 'step-elsewhere')", learnedVerb, toolId, verb);
            assertThat(registry.byToolId(toolId)).as("not known here before a refresh").isEmpty();
            assertThat(aliases.find(learnedVerb)).isEmpty();

            refresh();

            assertThat(registry.byVerb(verb)).get().extracting(Plugin::toolId).isEqualTo(toolId);
            assertThat(registry.byVerb(verb).get().serves()).isTrue();
            assertThat(aliases.find("changeMeasure_" + suffix)).as("found in any form of the verb").get()
                    .extracting(Alias::toolId).isEqualTo(toolId);

            // the other replica's health worker disables it
            update("UPDATE plugin SET status = 'DISABLED', status_reason = 'probes failed' WHERE tool_id = ?", toolId);
            assertThat(registry.byToolId(toolId).get().serves()).as("still the old status before a refresh").isTrue();
            refresh();
            assertThat(registry.byToolId(toolId).get().serves()).isFalse();
            assertThat(registry.byToolId(toolId).get().statusReason()).isEqualTo("probes failed");
        } finally {
            update("DELETE FROM verb_alias WHERE verb = ?", learnedVerb);
            update("DELETE FROM plugin WHERE tool_id = ?", toolId);
        }
        refresh();
        assertThat(registry.byToolId(toolId)).as("a forgotten plugin is forgotten here too").isEmpty();
        assertThat(aliases.find(learnedVerb)).isEmpty();
    }

    private void refresh() throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> refresher.refresh());
    }

    private void update(String sql, String... parameters) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            assertThat(statement.executeUpdate()).as(sql).isEqualTo(1);
        }
    }
}
