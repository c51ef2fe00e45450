package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.testsupport.FirstVersionHash;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A plugin registered before content hashes were versioned keeps its {@code sha256:} hash and its version when the
 * same content comes again with a new {@code sha256-jcs:} hash (a restart re-registering internal plugins, an
 * engineer re-announcing a build); other content still makes the next version.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PluginHashVersionsTest {

    @Inject
    PluginStore store;

    @Inject
    PluginRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    private final ContractCodec codec = new ContractCodec();

    @Test
    void aFirstVersionHashOfTheSameContentIsNoChangeAndOtherContentIsTheNextVersion() throws Throwable {
        String toolId = "hash-versions-" + UUID.randomUUID().toString().substring(0, 8);
        ToolManifest units = registry.byToolId("internal.convert-units").orElseThrow().manifest();
        ToolManifest manifest = renamed(units, toolId, "HASHED_UNITS_" + toolId.substring(14).toUpperCase());
        String firstVersion = FirstVersionHash.of(manifest, codec.mapper());
        try {
            try (Connection db = dataSource.getConnection(); PreparedStatement insert = db.prepareStatement(
                    "INSERT INTO plugin (tool_id, verb, plugin_type, status, version, content_hash, manifest) "
                            + "VALUES (?, ?, 'INTERNAL', 'ENABLED', 3, ?, CAST(? AS jsonb))")) {
                insert.setString(1, toolId);
                insert.setString(2, manifest.verb());
                insert.setString(3, firstVersion);
                insert.setString(4, codec.mapper().writeValueAsString(manifest));
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }

            assertThat(upsert(manifest)).as("the same content, hashed anew").isEmpty();
            assertThat(stored(toolId)).isEqualTo("3 " + firstVersion);

            ToolManifest changed = renamed(manifest, toolId, manifest.verb() + "_V2");
            Optional<Plugin> next = upsert(changed);
            assertThat(next).get().extracting(Plugin::version).isEqualTo(4);
            assertThat(stored(toolId)).isEqualTo("4 " + ContentHash.of(changed, codec.mapper()))
                    .contains(" sha256-jcs:");
        } finally {
            try (Connection db = dataSource.getConnection();
                    PreparedStatement delete = db.prepareStatement("DELETE FROM plugin WHERE tool_id = ?")) {
                delete.setString(1, toolId);
                delete.executeUpdate();
            }
        }
    }

    private Optional<Plugin> upsert(ToolManifest manifest) throws Throwable {
        String hash = ContentHash.of(manifest, codec.mapper());
        Plugin plugin = new Plugin(manifest.id(), manifest.verb(), PluginType.INTERNAL, PluginStatus.ENABLED, null, 1,
                hash, manifest.withVersion(1, hash), null);
        return VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> store.upsertIfChanged(plugin, 1)));
    }

    private String stored(String toolId) throws SQLException {
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(
                "SELECT version, content_hash FROM plugin WHERE tool_id = ?")) {
            select.setString(1, toolId);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getInt(1) + " " + row.getString(2);
            }
        }
    }

    private static ToolManifest renamed(ToolManifest m, String id, String verb) {
        return new ToolManifest(id, verb, m.name(), m.description(), m.source(), m.namespace(), m.domain(), m.tags(),
                m.inputSchema(), m.outputSchema(), m.risk(), m.binding(), m.healthProbe(), 0, null);
    }
}
