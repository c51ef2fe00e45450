package dev.toolsmith.capabilities.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How steps are taken in and run, under {@code toolsmith.steps.*}. */
@ConfigMapping(prefix = "toolsmith.steps")
public interface StepConfig {

    /** How long {@code POST /steps} waits for the result before answering 202 with a Location. */
    @WithDefault("10s")
    Duration restWait();

    /**
     * Steps from Kafka run concurrently (in order within a plan): at most this many at once. The
     * consumer stops taking records while the limit is reached, so memory stays bounded.
     */
    @WithDefault("64")
    int maxInFlight();

    /**
     * A step claimed longer ago than this and still unfinished belonged to an instance that died: it is
     * finished as FAILED (never re-run, since its plugin may have acted already). Must exceed the
     * longest search + decomposition + plugin time.
     */
    @WithDefault("5m")
    Duration abandonedAfter();

    /** How often abandoned claims are looked for, as the scheduler reads it: {@code 30s}, or {@code off}. */
    @WithDefault("30s")
    String sweepEvery();

    /** How often the registry and aliases are re-read, to see changes made by other replicas. */
    @WithDefault("30s")
    Duration registryRefresh();
}
