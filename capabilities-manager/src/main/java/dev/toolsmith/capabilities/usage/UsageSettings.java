package dev.toolsmith.capabilities.usage;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How usage records are written. */
@ConfigMapping(prefix = "toolsmith.usage")
public interface UsageSettings {

    /** Call records are written in batches this often (and at shutdown), off the calls' path. */
    @WithDefault("500ms")
    Duration flushInterval();
}
