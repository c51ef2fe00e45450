package dev.toolsmith.capabilities.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * Token-bucket state goes over the named datasource {@code policy-state}: the same database and schema as the
 * default pool, with commits that do not wait for the disk; everything else keeps durable commits.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PolicyStateDataSourceTest {

    @Inject
    PolicyStateDataSource policyState;

    @Inject
    AgroalDataSource durable;

    @Test
    void bucketStateCommitsAsynchronouslyInTheServicesSchemaAndTheDefaultPoolStaysDurable() throws SQLException {
        assertThat(show(policyState.asyncCommit(), "synchronous_commit")).isEqualTo("off");
        assertThat(show(durable, "synchronous_commit")).isEqualTo("on");
        assertThat(query(policyState.asyncCommit(), "SELECT current_schema()")).isEqualTo("capabilities");
        assertThat(query(policyState.asyncCommit(), "SELECT to_regclass('rate_limit_bucket')::text"))
                .isEqualTo("rate_limit_bucket");
    }

    private static String show(DataSource dataSource, String setting) throws SQLException {
        return query(dataSource, "SHOW " + setting);
    }

    private static String query(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
