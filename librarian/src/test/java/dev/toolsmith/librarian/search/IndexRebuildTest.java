package dev.toolsmith.librarian.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.librarian.catalog.CatalogEntries;
import dev.toolsmith.librarian.catalog.CatalogSnapshot;
import dev.toolsmith.librarian.catalog.CatalogVectorizer;
import dev.toolsmith.librarian.catalog.StoredTool;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.embed.ForwardingTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The start-up path: a fresh index rebuilt from the catalog finds the tools, using the stored vectors
 * (nothing embedded) unless they came from another model, which are embedded once and written back.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class IndexRebuildTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    CatalogEntries entries;

    @Inject
    CatalogSeeder seeder;

    @Inject
    ToolIndex serviceIndex;

    @Test
    void aFreshIndexIsRebuiltFromTheCatalogWithoutEmbeddingUnchangedTools() throws Exception {
        for (var tool : List.of(TestTools.flight("rb.flight"), TestTools.table("rb.table"))) {
            assertThat(seeder.seed(tool).newVersion()).isTrue();
        }
        CountingEmbedder counting = new CountingEmbedder(serviceIndex.embedder());
        try (ToolIndex fresh = new ToolIndex(counting)) {
            CatalogSnapshot snapshot = new CatalogSnapshot(dataSource, entries, new CatalogVectorizer(fresh, null));
            List<StoredTool> stored = snapshot.load();
            assertThat(stored).extracting(t -> t.entry().toolId()).contains("rb.flight", "rb.table");
            assertThat(counting.passages.get()).isZero();

            CatalogProjection projection = new CatalogProjection(fresh, new CatalogVectorizer(fresh, null));
            projection.load(stored);
            SearchResult result = fresh.search(ToolQuery.text("I need a plane ticket from Paris to Berlin", 1));
            assertThat(result.hits()).extracting(h -> h.toolId()).containsExactly("rb.flight");
            assertThat(projection.loaded()).isTrue();
        }

        // Vectors from a retired model are embedded again, once, and written back.
        try (Connection db = dataSource.getConnection(); PreparedStatement retire = db.prepareStatement(
                "UPDATE catalog_tool_version SET vector_model = 'retired-model' WHERE tool_id = 'rb.table'")) {
            retire.executeUpdate();
        }
        try (ToolIndex fresh = new ToolIndex(counting)) {
            counting.passages.set(0);
            CatalogSnapshot snapshot = new CatalogSnapshot(dataSource, entries, new CatalogVectorizer(fresh, null));
            List<StoredTool> stored = snapshot.load();
            assertThat(counting.passages.get()).isPositive();
            assertThat(stored).filteredOn(t -> t.entry().toolId().equals("rb.table"))
                    .allSatisfy(t -> assertThat(t.vectors().modelId()).isEqualTo(serviceIndex.modelId()));
            counting.passages.set(0);
            snapshot.load();
            assertThat(counting.passages.get()).isZero();
        }
        try (Connection db = dataSource.getConnection(); PreparedStatement select = db.prepareStatement(
                "SELECT vector_model FROM catalog_tool_version WHERE tool_id = 'rb.table'");
                ResultSet row = select.executeQuery()) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo(serviceIndex.modelId());
        }
    }

    /** The service's model, counting how many tool texts it is asked to embed. */
    static final class CountingEmbedder extends ForwardingTextEmbedder {
        final AtomicInteger passages = new AtomicInteger();

        CountingEmbedder(TextEmbedder delegate) {
            super(delegate);
        }

        @Override
        public float[] embedPassage(String text) {
            passages.incrementAndGet();
            return delegate.embedPassage(text);
        }

        @Override
        public java.util.List<float[]> embedPassages(java.util.List<String> texts) {
            passages.addAndGet(texts.size());
            return delegate.embedPassages(texts);
        }

        /** The service's model stays open: only the test's indexes close. */
        @Override
        public void close() {
        }
    }
}
