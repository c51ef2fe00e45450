package dev.toolsmith.capabilities.registry;

import java.time.Instant;

/**
 * A verb learned from a confident substitution: steps with {@code verb} (normalised) run the tool
 * {@code toolId} directly, without a search.
 */
public record Alias(String verb, String toolId, String targetVerb, double confidence, String learnedFrom,
        Instant learnedAt) {
}
