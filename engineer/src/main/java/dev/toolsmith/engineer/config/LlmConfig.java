package dev.toolsmith.engineer.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * The optional LLM, under {@code toolsmith.llm.*} as in the capabilities manager: the OpenAI-compatible
 * client is configured from these in application.properties, and the engineer calls it only when
 * {@code enabled} is true and a {@code base-url} is given. The key comes from the environment only.
 */
@ConfigMapping(prefix = "toolsmith.llm")
public interface LlmConfig {

    @WithDefault("false")
    boolean enabled();

    /** e.g. {@code https://api.openai.com/v1/} or a local OpenAI-compatible server. */
    Optional<String> baseUrl();

    default boolean configured() {
        return enabled() && baseUrl().filter(url -> !url.isBlank()).isPresent();
    }
}
