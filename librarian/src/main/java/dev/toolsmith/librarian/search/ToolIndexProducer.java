package dev.toolsmith.librarian.search;

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
 * alone is confident enough skip its query embedding (docs/search.md, "Cascade"); false embeds every query.
 */
@Singleton
public class ToolIndexProducer {

    @Produces
    @Singleton
    ToolIndex toolIndex(@ConfigProperty(name = "toolsmith.search.query-cache-size", defaultValue = "4096") int cacheSize,
            @ConfigProperty(name = "toolsmith.search.cascade.enabled", defaultValue = "true") boolean cascade) {
        return toolIndex(EnsembleTextEmbedder.defaultEnsemble(), cacheSize, cascade);
    }

    /** The index over {@code models}, with the query cache and cascade settings applied. */
    static ToolIndex toolIndex(TextEmbedder models, int cacheSize, boolean cascade) {
        if (cacheSize < 0) {
            throw new IllegalArgumentException("toolsmith.search.query-cache-size must be 0 (off) or more, got " + cacheSize);
        }
        return new ToolIndex(cacheSize == 0 ? models : new CachingTextEmbedder(models, cacheSize), cascade);
    }

    void close(@Disposes ToolIndex index) {
        index.close();
    }
}
