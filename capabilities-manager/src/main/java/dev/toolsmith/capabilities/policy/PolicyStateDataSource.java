package dev.toolsmith.capabilities.policy;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import javax.sql.DataSource;

/**
 * The JDBC pool for token-bucket state whose commits do not wait for the disk
 * ({@code synchronous_commit=off}): a bucket's row lock still serialises every replica, so limits stay
 * exact while PostgreSQL runs; a crash of the database server may forget the last fraction of a second of
 * consumed tokens, which lets at most that many extra calls through once. That trade takes a disk flush
 * per bucket (about a millisecond here) off every wrapped call. Quota and budget reservations use the
 * durable default pool unless {@code toolsmith.policy.reservation-commit=async}. The pool is Quarkus' named
 * datasource {@value #NAME} (application.properties), so it is configured, measured and health-checked like
 * the default one.
 */
@ApplicationScoped
public class PolicyStateDataSource {

    /** The name of the datasource in application.properties. */
    public static final String NAME = "policy-state";

    private final AgroalDataSource pool;

    public PolicyStateDataSource(@io.quarkus.agroal.DataSource(NAME) AgroalDataSource pool) {
        this.pool = pool;
    }

    /** Connections whose commits return before the WAL reaches the disk. */
    public DataSource asyncCommit() {
        return pool;
    }
}
