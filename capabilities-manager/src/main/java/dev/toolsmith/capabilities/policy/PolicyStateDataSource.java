package dev.toolsmith.capabilities.policy;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A small JDBC pool for token-bucket state whose commits do not wait for the disk
 * ({@code synchronous_commit=off}): a bucket's row lock still serialises every replica, so limits stay
 * exact while PostgreSQL runs; a crash of the database server may forget the last fraction of a second of
 * consumed tokens, which lets at most that many extra calls through once. That trade takes a disk flush
 * per bucket (about a millisecond here) off every wrapped call. Quota and budget reservations use the
 * durable default pool unless {@code toolsmith.policy.reservation-commit=async}.
 */
@ApplicationScoped
public class PolicyStateDataSource {

    private final AgroalDataSource pool;

    public PolicyStateDataSource(@ConfigProperty(name = "quarkus.datasource.jdbc.url") String url,
            @ConfigProperty(name = "quarkus.datasource.username") String user,
            @ConfigProperty(name = "quarkus.datasource.password") String password,
            @ConfigProperty(name = "toolsmith.db.schema") String schema,
            @ConfigProperty(name = "toolsmith.policy.pool-size", defaultValue = "8") int size) {
        this.pool = open(url, user, password, schema, size);
    }

    /** Connections whose commits return before the WAL reaches the disk. */
    public DataSource asyncCommit() {
        return pool;
    }

    public static AgroalDataSource open(String url, String user, String password, String schema, int size) {
        try {
            return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                    .connectionPoolConfiguration(cp -> cp.maxSize(size).minSize(1).initialSize(1)
                            .acquisitionTimeout(java.time.Duration.ofSeconds(5))
                            .connectionFactoryConfiguration(cf -> cf.jdbcUrl(url)
                                    .principal(new NamePrincipal(user)).credential(new SimplePassword(password))
                                    .jdbcProperty("currentSchema", schema)
                                    .jdbcProperty("options", "-c synchronous_commit=off"))));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the policy-state pool: " + e.getMessage(), e);
        }
    }

    @PreDestroy
    void close() {
        pool.close();
    }
}
