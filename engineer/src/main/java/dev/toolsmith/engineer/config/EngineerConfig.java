package dev.toolsmith.engineer.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The engineer's settings (docs/engineer.md, "Configuration"). */
@ConfigMapping(prefix = "toolsmith.engineer")
public interface EngineerConfig {

    /** A job left in GENERATING or VERIFYING this long is taken to be orphaned by a crash and built again. */
    @WithDefault("60s")
    Duration resumeAfter();

    /** Jobs taken per scan. */
    @WithDefault("20")
    int batchSize();

    Wrapper wrapper();

    LiveSmoke liveSmoke();

    interface Wrapper {
        /** Timeout of a generated plugin when the approval sets none. */
        @WithDefault("10000")
        int defaultTimeoutMs();

        @WithDefault("60000")
        int maxTimeoutMs();

        @WithDefault("2097152")
        long defaultMaxResponseBytes();

        @WithDefault("16777216")
        long maxResponseBytesCeiling();
    }

    /** Optionally call the real API's health probe once after the stub verification passed. */
    interface LiveSmoke {
        @WithDefault("false")
        boolean enabled();

        /** Only for local development against an API on this machine. */
        @WithDefault("false")
        boolean allowPrivateNetworks();
    }

    /** The platform key (32 bytes, base64) that decrypts the policy's secrets for the live check; none by default. */
    @io.smallrye.config.WithName("secrets-key")
    java.util.Optional<String> secretsKey();
}
