package dev.toolsmith.librarian.search;

import dev.toolsmith.search.StepConfidence;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.embed.CachingTextEmbedder;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The replica's in-memory search index (Lucene BM25 + dense vectors from the in-process model). One per
 * JVM; it is a projection of the catalog, filled by {@link IndexBootstrap} and {@link CatalogProjection}.
 * Query vectors of the last {@code toolsmith.search.query-cache-size} distinct query texts are kept
 * (0 turns that off). {@code toolsmith.search.cascade.enabled} (default true) lets a plan step whose BM25 answer
 * alone is confident enough skip its query embedding (docs/search.md, "How a query is ranked"); false embeds every query.
 * {@code toolsmith.search.step-confidence} ({@code standard}, the default, or {@code cautious}) chooses the step models
 * behind a plan step's confidence: {@code cautious} was fitted with steps whose tool is not in the catalog, for
 * deployments whose planners often ask for verbs nothing serves (docs/search.md).
 */
@Singleton
public class ToolIndexProducer {

    @Produces
    @Singleton
    ToolIndex toolIndex(@ConfigProperty(name = "toolsmith.search.query-cache-size", defaultValue = "4096") int cacheSize,
            @ConfigProperty(name = "toolsmith.search.cascade.enabled", defaultValue = "true") boolean cascade,
            @ConfigProperty(name = STEP_CONFIDENCE, defaultValue = "standard") String stepConfidence) {
        // checked before the models load, so a typo stops the start with the setting named, not after a minute
        StepConfidence models = StepConfidence.parse(STEP_CONFIDENCE, stepConfidence);
        return toolIndex(EnsembleTextEmbedder.defaultEnsemble(), cacheSize, cascade, models);
    }

    static final String STEP_CONFIDENCE = "toolsmith.search.step-confidence";

    /** The index over {@code models}, with the query cache, cascade and step-confidence settings applied. */
    static ToolIndex toolIndex(TextEmbedder models, int cacheSize, boolean cascade, StepConfidence stepConfidence) {
        if (cacheSize < 0) {
            throw new IllegalArgumentException("toolsmith.search.query-cache-size must be 0 (off) or more, got " + cacheSize);
        }
        return new ToolIndex(cacheSize == 0 ? models : new CachingTextEmbedder(models, cacheSize), cascade, stepConfidence);
    }

    void close(@Disposes ToolIndex index) {
        index.close();
    }
}
