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
 * (0 turns that off).
 */
@Singleton
public class ToolIndexProducer {

    @Produces
    @Singleton
    ToolIndex toolIndex(@ConfigProperty(name = "toolsmith.search.query-cache-size", defaultValue = "4096") int cacheSize) {
        if (cacheSize < 0) {
            throw new IllegalArgumentException("toolsmith.search.query-cache-size must be 0 (off) or more, got " + cacheSize);
        }
        TextEmbedder models = EnsembleTextEmbedder.defaultEnsemble();
        return new ToolIndex(cacheSize == 0 ? models : new CachingTextEmbedder(models, cacheSize));
    }

    void close(@Disposes ToolIndex index) {
        index.close();
    }
}
