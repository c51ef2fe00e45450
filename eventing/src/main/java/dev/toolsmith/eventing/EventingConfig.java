package dev.toolsmith.eventing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;

/** Settings of the outbox relay and of topic provisioning, under {@code toolsmith.*}. */
@ConfigMapping(prefix = "toolsmith")
public interface EventingConfig {

    /** The service's PostgreSQL schema; also names the relay's notification channel and lock. */
    @WithName("db.schema")
    String schema();

    /** The CloudEvents {@code source} of every event this service emits, e.g. {@code /librarian}. */
    @WithName("events.source")
    String eventSource();

    Outbox outbox();

    Kafka kafka();

    interface Outbox {
        /** Off only in tests that drive the relay by hand. */
        @WithDefault("true")
        boolean relayEnabled();

        /** Longest wait between two looks at the table when no commit notified the relay. */
        @WithDefault("1s")
        Duration pollInterval();

        @WithDefault("500")
        int batchSize();

        /** How long published rows stay for inspection before they are deleted. */
        @WithDefault("1h")
        Duration retention();

        /** How long processed event ids are remembered for deduplication. */
        @WithDefault("7d")
        Duration dedupeRetention();
    }

    interface Kafka {
        @WithDefault("true")
        boolean provisionTopics();

        @WithDefault("3")
        int partitions();

        @WithDefault("1")
        short replicationFactor();
    }
}
