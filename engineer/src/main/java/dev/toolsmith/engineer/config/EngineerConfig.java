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

    /**
     * Ask the LLM (when {@code toolsmith.llm} is configured) for a better description and a suggested verb
     * while generating a wrapper; the answer is validated, the description applied and a different verb only
     * added as a search tag (the approved verb stays).
     */
    @WithDefault("false")
    boolean llmHelp();

    /** Where the librarian's airlock takes find-or-build drafts ({@code POST /tools/pending/drafts}). */
    @WithDefault("http://127.0.0.1:8081")
    String librarianUrl();

    /** The engineer's own API key (role service) for calls to the librarian; drafts are not delivered without it. */
    java.util.Optional<String> serviceApiKey();

    /** The platform key (32 bytes, base64) that decrypts the policy's secrets for the live check; none by default. */
    @io.smallrye.config.WithName("secrets-key")
    java.util.Optional<String> secretsKey();
}
