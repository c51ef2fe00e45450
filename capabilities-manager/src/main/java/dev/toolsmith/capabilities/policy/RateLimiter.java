package dev.toolsmith.capabilities.policy;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Token buckets per tool (all callers together) and per caller, with Bucket4j's PostgreSQL backend: the
 * bucket state lives in {@code rate_limit_bucket} and each consumption locks its row
 * ({@code SELECT ... FOR UPDATE}), so every replica draws from the same buckets. The buckets' commits
 * are asynchronous ({@link PolicyStateDataSource}). For fast rates a replica draws a few tokens at once
 * and hands them out locally ({@link #tokensPerDraw}): every call still spends a token the shared bucket
 * gave out, so the rate across replicas is never passed, and a token unused for a lease window goes back
 * to its bucket. Blocking JDBC: call it from a worker thread.
 */
@ApplicationScoped
public class RateLimiter {

    private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;
    private final double perCallerFraction;
    private final PolicyLeases leasing;
    private final Map<String, TokenLease> leases = new ConcurrentHashMap<>();
    /** The buckets' shapes by rate and share: worked out once per policy, not on every call. */
    private final Map<ShapeKey, BucketShape> shapes = new ConcurrentHashMap<>();

    @Inject
    public RateLimiter(PolicyStateDataSource state, PolicySettings settings, PolicyLeases leasing) {
        this(state.asyncCommit(), settings.perCallerRateFraction(), leasing);
    }

    /** For the overhead benchmark and tests, which run without CDI. */
    public RateLimiter(DataSource dataSource, double perCallerFraction, PolicyLeases leasing) {
        if (!(perCallerFraction > 0 && perCallerFraction <= 1)) {
            throw new IllegalArgumentException("toolsmith.policy.per-caller-rate-fraction must be in (0, 1], got "
                    + perCallerFraction);
        }
        this.perCallerFraction = perCallerFraction;
        this.leasing = leasing;
        this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_bucket")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                // an idle bucket is full again after its refill time: its row can go then
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofMinutes(1)))
                .build();
        leasing.every(this::giveBackStale);
    }

    /**
     * Takes one token from the caller's bucket (when callers get a fraction of the rate) and one from the
     * tool's. Why the call must wait, or empty
     * when it may go. A tool without a rate limit costs nothing here.
     */
    public Optional<String> tryAcquire(String toolId, String caller, UsagePolicy.RateLimit rate) {
        if (rate == null || (rate.perSecond() == null && rate.perMinute() == null)) {
            return Optional.empty();
        }
        String fingerprint = shape(rate, perCallerFraction).fingerprint();
        // With the whole rate per caller (fraction 1), a caller's bucket always holds at least as many tokens
        // as the tool's (same capacity and refill; every call that takes from it also takes from the
        // tool's), so it could never refuse first: it is not kept, which saves a transaction per call.
        if (perCallerFraction < 1) {
            OptionalLong wait = take("caller|" + toolId + "|" + caller + "|" + fingerprint, rate, perCallerFraction);
            if (wait.isPresent()) {
                return Optional.of("rate limit: caller '" + caller + "' has used its share of " + toolId + "'s rate ("
                        + describe(rate) + " x " + perCallerFraction + "); retry in " + retryIn(wait.getAsLong()));
            }
        }
        OptionalLong wait = take("tool|" + toolId + "|" + fingerprint, rate, 1.0);
        if (wait.isPresent()) {
            return Optional.of("rate limit of " + toolId + " reached (" + describe(rate) + "); retry in "
                    + retryIn(wait.getAsLong()));
        }
        return Optional.empty();
    }

    /**
     * One token of the bucket {@code key}: empty when taken, else the nanoseconds until one is back. A
     * slow rate takes each token from PostgreSQL; a fast one draws a few ahead ({@link #tokensPerDraw}).
     */
    private OptionalLong take(String key, UsagePolicy.RateLimit rate, double fraction) {
        BucketShape shape = shape(rate, fraction);
        BucketConfiguration configuration = shape.configuration();
        long block = shape.tokensPerDraw();
        if (block <= 1) {
            ConsumptionProbe probe = buckets.builder().build(key, () -> configuration).tryConsumeAndReturnRemaining(1);
            return probe.isConsumed() ? OptionalLong.empty() : OptionalLong.of(probe.getNanosToWaitForRefill());
        }
        while (true) {
            TokenLease lease = leases.computeIfAbsent(key,
                    k -> new TokenLease(buckets.builder().build(k, () -> configuration), System.nanoTime()));
            if (lease.units.take(System.nanoTime())) {
                topUpIfLow(lease, block);
                return OptionalLong.empty();
            }
            synchronized (lease) {
                if (lease.units.isClosed()) {
                    continue; // given back meanwhile: draw under a fresh lease
                }
                if (lease.units.take(System.nanoTime())) {
                    return OptionalLong.empty();
                }
                long drawn = lease.bucket.tryConsumeAsMuchAsPossible(block);
                if (drawn == 0) {
                    return OptionalLong.of(lease.bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill());
                }
                lease.units.drewAndTookOne(drawn, System.nanoTime());
                return OptionalLong.empty();
            }
        }
    }

    private record ShapeKey(UsagePolicy.RateLimit rate, double fraction) {
    }

    /** A bucket's key part (a changed rate starts fresh buckets), its configuration and its draw size. */
    private record BucketShape(String fingerprint, BucketConfiguration configuration, long tokensPerDraw) {
    }

    private BucketShape shape(UsagePolicy.RateLimit rate, double fraction) {
        return shapes.computeIfAbsent(new ShapeKey(rate, fraction), key -> {
            BucketConfiguration configuration = configuration(rate, fraction);
            return new BucketShape(fingerprint(rate, perCallerFraction), configuration,
                    tokensPerDraw(rate, fraction, configuration));
        });
    }

    private void topUpIfLow(TokenLease lease, long block) {
        if (lease.units.startTopUp(block / 2)) {
            leasing.run(() -> {
                synchronized (lease) {
                    long drawn = lease.units.isClosed() ? 0 : lease.bucket.tryConsumeAsMuchAsPossible(block);
                    if (drawn > 0) {
                        lease.units.toppedUp(drawn, System.nanoTime());
                    } else {
                        lease.units.topUpFailed();
                    }
                }
            });
        }
    }

    /**
     * Tokens a replica draws at once: what the rate refills in half a lease window, at most
     * {@link PolicyLeases#unitsPerDraw()} and an eighth of the bucket's capacity, so no replica sits on
     * much of a burst. 1 (no drawing ahead) for rates below a few calls per window.
     */
    long tokensPerDraw(UsagePolicy.RateLimit rate, double fraction, BucketConfiguration configuration) {
        double perSecond = rate.perSecond() != null ? rate.perSecond() : rate.perMinute() / 60.0;
        long refilledInHalfWindow = (long) Math.floor(perSecond * fraction * leasing.window().toNanos() / 2e9);
        long capacity = Long.MAX_VALUE;
        for (Bandwidth bandwidth : configuration.getBandwidths()) {
            capacity = Math.min(capacity, bandwidth.getCapacity());
        }
        return Math.max(1, Math.min(Math.min(leasing.unitsPerDraw(), capacity / 8), refilledInHalfWindow));
    }

    /** Tokens drawn more than a window ago and not used go back to their bucket. */
    void giveBackStale() {
        long staleBefore = System.nanoTime() - leasing.window().toNanos();
        for (Map.Entry<String, TokenLease> entry : leases.entrySet()) {
            TokenLease lease = entry.getValue();
            if (lease.units.drawnBefore(staleBefore) && leases.remove(entry.getKey(), lease)) {
                giveBack(lease);
            }
        }
    }

    /** Gives every drawn, unused token back; the service calls it on shutdown. */
    @PreDestroy
    public void giveBackAll() {
        for (Map.Entry<String, TokenLease> entry : leases.entrySet()) {
            if (leases.remove(entry.getKey(), entry.getValue())) {
                giveBack(entry.getValue());
            }
        }
    }

    private static void giveBack(TokenLease lease) {
        synchronized (lease) {
            long unused = lease.units.close().unused();
            if (unused > 0) {
                lease.bucket.addTokens(unused);
            }
        }
    }

    /** Tokens of one bucket drawn ahead by this replica. Draws on it are serialised by its monitor. */
    private static final class TokenLease {
        final Bucket bucket;
        final DrawnUnits units;

        TokenLease(Bucket bucket, long nowNanos) {
            this.bucket = bucket;
            this.units = new DrawnUnits(nowNanos);
        }
    }

    /** Removes rows of buckets that have been full and idle long enough; returns how many. */
    public int removeIdleBuckets() {
        int removed = 0;
        for (int batch = buckets.removeExpired(1000); batch > 0; batch = buckets.removeExpired(1000)) {
            removed += batch;
        }
        return removed;
    }

    /**
     * {@code perSecond} with {@code burst} as its capacity (default: one second's worth), and
     * {@code perMinute} with a minute's worth; both apply when both are set. Greedy refill: tokens come
     * back continuously, not in lumps.
     */
    static BucketConfiguration configuration(UsagePolicy.RateLimit rate, double fraction) {
        ConfigurationBuilder builder = BucketConfiguration.builder();
        if (rate.perSecond() != null) {
            double perSecond = rate.perSecond() * fraction;
            long capacity = scaled(rate.burst() != null ? rate.burst() : Math.ceil(rate.perSecond()), fraction);
            long nanosPerToken = Math.max(1, (long) (TimeUnit.SECONDS.toNanos(1) / perSecond));
            builder.addLimit(Bandwidth.builder().capacity(capacity).refillGreedy(1, Duration.ofNanos(nanosPerToken))
                    .build());
        }
        if (rate.perMinute() != null) {
            long perMinute = scaled(rate.perMinute(), fraction);
            long capacity = rate.perSecond() == null && rate.burst() != null ? scaled(rate.burst(), fraction) : perMinute;
            builder.addLimit(Bandwidth.builder().capacity(capacity).refillGreedy(perMinute, Duration.ofMinutes(1))
                    .build());
        }
        return builder.build();
    }

    private static long scaled(double amount, double fraction) {
        return Math.max(1, (long) Math.floor(amount * fraction));
    }

    static String describe(UsagePolicy.RateLimit rate) {
        StringBuilder text = new StringBuilder();
        if (rate.perSecond() != null) {
            text.append(stripped(rate.perSecond())).append("/s");
        }
        if (rate.perMinute() != null) {
            text.append(text.length() > 0 ? ", " : "").append(rate.perMinute()).append("/min");
        }
        if (rate.burst() != null) {
            text.append(", burst ").append(rate.burst());
        }
        return text.toString();
    }

    private static String stripped(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static String retryIn(long nanosToWait) {
        long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanosToWait));
        return ms < 1000 ? ms + " ms" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** A changed rate starts fresh buckets under new keys, on every replica at once. */
    static String fingerprint(UsagePolicy.RateLimit rate, double fraction) {
        String canonical = rate.perSecond() + "/" + rate.perMinute() + "/" + rate.burst() + "/" + fraction;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }
}
