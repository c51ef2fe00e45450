package dev.toolsmith.capabilities.policy;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * How far ahead this replica draws units of shared limits (rate tokens, quota and budget calls) so that a
 * call far from every limit needs no database round trip, and the one background thread that tops those
 * units up and settles them. {@code unitsPerDraw} 1 turns drawing ahead off: every call then checks
 * PostgreSQL itself.
 */
@ApplicationScoped
public class PolicyLeases {

    private static final Logger LOG = Logger.getLogger(PolicyLeases.class);

    private final int unitsPerDraw;
    private final Duration window;
    private final ScheduledExecutorService worker;

    @Inject
    public PolicyLeases(PolicySettings settings) {
        this(settings.leaseUnits(), settings.leaseWindow());
    }

    /** For the overhead benchmark and tests, which run without CDI. */
    public PolicyLeases(int unitsPerDraw, Duration window) {
        if (unitsPerDraw < 1) {
            throw new IllegalArgumentException("toolsmith.policy.lease-units must be at least 1, got " + unitsPerDraw);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("toolsmith.policy.lease-window must be positive, got " + window);
        }
        this.unitsPerDraw = unitsPerDraw;
        this.window = window;
        this.worker = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "policy-leases");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The most units one draw takes. */
    public int unitsPerDraw() {
        return unitsPerDraw;
    }

    /**
     * How long drawn units may wait: rate tokens unused this long go back to their bucket, quota use is
     * settled this often, and a tool idle this long gives back what it holds.
     */
    public Duration window() {
        return window;
    }

    void run(Runnable task) {
        worker.execute(guarded(task));
    }

    /** Runs {@code task} twice per window until shutdown. */
    void every(Runnable task) {
        long half = Math.max(1, window.toMillis() / 2);
        worker.scheduleWithFixedDelay(guarded(task), half, half, TimeUnit.MILLISECONDS);
    }

    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                // a failed top-up or settlement is retried on the next round; the thread must live on
                LOG.warnf(e, "policy lease work failed");
            }
        };
    }

    @PreDestroy
    public void close() {
        worker.shutdown();
    }
}
