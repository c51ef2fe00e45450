package dev.toolsmith.capabilities.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * The LLM used to decompose steps nothing can serve (ACCOMPLISH), under {@code toolsmith.llm.*}. The
 * OpenAI-compatible client itself is configured from these in application.properties; decomposition
 * runs only when {@code enabled} is true and a {@code base-url} is given.
 */
@ConfigMapping(prefix = "toolsmith.llm")
public interface DecompositionLlmConfig {

    @WithDefault("false")
    boolean enabled();

    /** e.g. {@code https://api.openai.com/v1/} or a local OpenAI-compatible server. */
    Optional<String> baseUrl();

    /** How many verbs of the registry the prompt lists at most (the prompt grows with the registry). */
    @WithDefault("200")
    int maxVerbsInPrompt();

    /** Steps a decomposition may have at most. */
    @WithDefault("10")
    int maxPlanSteps();

    default boolean configured() {
        return enabled() && baseUrl().filter(url -> !url.isBlank()).isPresent();
    }
}
