package dev.toolsmith.capabilities.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The novel-verb search over Kafka, under {@code toolsmith.search.*}. */
@ConfigMapping(prefix = "toolsmith.search")
public interface SearchConfig {

    /** How long a novel-verb step waits for the librarian's reply before it is UNRESOLVED. */
    @WithDefault("3s")
    Duration timeout();

    /** How many candidates to ask for (and attach to UNRESOLVED results). */
    @WithDefault("5")
    int limit();
}
