package dev.toolsmith.capabilities.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.PostgresTestResource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;

/**
 * V23_1 on real PostgreSQL: a database migrated to the version before it holds aliases keyed the old way;
 * after the migration the printable-ASCII keys (normalised alike by both normalisers) are kept with their
 * rows unchanged, and every key with another character (built by the old normaliser, not re-keyable) is gone.
 */
class VerbAliasUnicodeKeysMigrationTest {

    private static final String DATABASE = "toolsmith_test_capabilities_v23_1";

    @Test
    void dropsOnlyAliasesWhoseKeysTheOldNormaliserMayHaveBuilt() throws SQLException {
        PostgresTestResource.recreate(DATABASE);
        String url = PostgresTestResource.jdbcUrl(DATABASE);
        flyway(url).target(MigrationVersion.fromVersion("18.5")).load().migrate();
        try (Connection db = DriverManager.getConnection(url, PostgresTestResource.user(), PostgresTestResource.password())) {
            insert(db, "convert currency", "fx-convert");
            insert(db, "get fx rate (eur/usd) ~v2", "fx-rate");
            insert(db, "convertüberweisung", "sepa-transfer");
            insert(db, "übersetze text", "translate");
            insert(db, "send\tmail", "mailer");
            insert(db, "翻訳する", "translate");

            var result = flyway(url).load().migrate();

            assertThat(result.success).isTrue();
            assertThat(result.migrations).extracting(m -> m.version).containsExactly("23.1");
            assertThat(rows(db)).containsExactly("convert currency -> fx-convert", "get fx rate (eur/usd) ~v2 -> fx-rate");
        }
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url) {
        // the service's own scripts and the outbox's, as quarkus.flyway runs them
        return Flyway.configure().dataSource(url, PostgresTestResource.user(), PostgresTestResource.password())
                .locations("classpath:db/eventing", "classpath:db/migration").outOfOrder(true);
    }

    private static void insert(Connection db, String verb, String toolId) throws SQLException {
        try (PreparedStatement sql = db.prepareStatement("INSERT INTO verb_alias (verb, tool_id, target_verb, confidence,"
                + " learned_from) VALUES (?, ?, 'TARGET', 0.9, 'step-1')")) {
            sql.setString(1, verb);
            sql.setString(2, toolId);
            sql.executeUpdate();
        }
    }

    private static List<String> rows(Connection db) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement sql = db.prepareStatement("SELECT verb, tool_id, target_verb, confidence FROM verb_alias ORDER BY verb");
                ResultSet result = sql.executeQuery()) {
            while (result.next()) {
                assertThat(result.getString("target_verb")).isEqualTo("TARGET");
                assertThat(result.getDouble("confidence")).isEqualTo(0.9);
                rows.add(result.getString("verb") + " -> " + result.getString("tool_id"));
            }
        }
        return rows;
    }
}
