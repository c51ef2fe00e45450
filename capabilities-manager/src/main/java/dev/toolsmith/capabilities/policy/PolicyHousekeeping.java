package dev.toolsmith.capabilities.policy;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Keeps the policy tables small: rows of token buckets that have been idle long enough to be full again,
 * and per-call usage rows older than {@code toolsmith.policy.usage-retention}. Safe on every replica at
 * once (each delete is idempotent).
 */
@ApplicationScoped
public class PolicyHousekeeping {

    private static final Logger LOG = Logger.getLogger(PolicyHousekeeping.class);

    private final RateLimiter rateLimiter;
    private final AgroalDataSource dataSource;
    private final PolicySettings settings;

    public PolicyHousekeeping(RateLimiter rateLimiter, AgroalDataSource dataSource, PolicySettings settings) {
        this.rateLimiter = rateLimiter;
        this.dataSource = dataSource;
        this.settings = settings;
    }

    @Scheduled(every = "${toolsmith.policy.housekeeping-interval:10m}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void run() {
        try {
            int buckets = rateLimiter.removeIdleBuckets();
            int calls;
            try (Connection c = dataSource.getConnection();
                    PreparedStatement s = c.prepareStatement("DELETE FROM plugin_call WHERE called_at < ?")) {
                s.setTimestamp(1, Timestamp.from(Instant.now().minus(settings.usageRetention())));
                calls = s.executeUpdate();
            }
            if (buckets + calls > 0) {
                LOG.debugf("housekeeping removed %d idle rate buckets and %d old usage rows", buckets, calls);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warnf("policy housekeeping failed, retried later: %s", e.getMessage());
        }
    }
}
