package dev.toolsmith.librarian.search;

import dev.toolsmith.search.ToolIndex;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The replica's in-memory search index (Lucene BM25 + dense vectors from the in-process model). One per
 * JVM; it is a projection of the catalog, filled by {@link IndexBootstrap} and {@link CatalogProjection}.
 */
@Singleton
public class ToolIndexProducer {

    @Produces
    @Singleton
    ToolIndex toolIndex() {
        return ToolIndex.withDefaultModel();
    }

    void close(@Disposes ToolIndex index) {
        index.close();
    }
}
