package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.embed.QueryEmbedding;
import dev.toolsmith.search.embed.TextEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sign prefilter of large catalogs, exercised on a small one: the real test catalog among 3,000 random
 * distractors, once with the prefilter from the first tool on and a shortlist of 300, once without it.
 */
class SignPrefilterTest {

    private static final int DISTRACTORS = 3000;
    private static ToolIndex plain;
    private static ToolIndex prefiltered;
    private static List<ToolVectors> realVectors;

    @BeforeAll
    static void build() {
        List<ToolManifest> real = TestCatalog.tools();
        try (ToolIndex vectorizer = new ToolIndex(TestCatalog.EMBEDDER)) {
            realVectors = vectorizer.vectorizeAll(real);
        }
        List<ToolIndex.IndexedTool> all = new ArrayList<>();
        for (int i = 0; i < real.size(); i++) {
            all.add(new ToolIndex.IndexedTool(real.get(i), realVectors.get(i), null));
        }
        Random random = new Random(11);
        int dim = TestCatalog.EMBEDDER.dimension();
        for (int i = 0; i < DISTRACTORS; i++) {
            ToolManifest t = TestCatalog.tool("noise-" + i, "NOISE_" + i, "Noise " + i, "Filler tool number " + i + ".",
                    "noise", "noise", Risk.READ_ONLY, "{}");
            all.add(new ToolIndex.IndexedTool(t, new ToolVectors(TestCatalog.EMBEDDER.modelId(), RandomVectors.unit(random, dim), null),
                    null));
        }
        plain = new ToolIndex(TestCatalog.EMBEDDER, Integer.MAX_VALUE, 0);
        prefiltered = new ToolIndex(TestCatalog.EMBEDDER, 0, 300);
        plain.upsertAll(all);
        prefiltered.upsertAll(all);
    }

    @AfterAll
    static void close() {
        plain.close();
        prefiltered.close();
    }

    @Test
    void theShortlistKeepsTheToolThatRanksFirst() {
        // below the right tool, random distractors and unrelated real tools score alike: their order is noise
        for (String q : List.of("how many euros for 250 dollars", "umbrella in Lisbon tomorrow", "a table for four at 8pm",
                "mail my boss", "flight from Paris to Berlin")) {
            SearchHit a = plain.search(ToolQuery.text(q, 5)).hits().get(0);
            List<SearchHit> b = prefiltered.search(ToolQuery.text(q, 5)).hits();
            assertThat(b).as(q).hasSize(5);
            assertThat(b.get(0).toolId()).as(q).isEqualTo(a.toolId()).doesNotStartWith("noise-");
        }
    }

    @Test
    void aFilterThatRefusesMostOfTheShortlistStillFillsTheLimit() {
        // the finance tools are two of 3,000-odd: the shortlist holds too few of them, so every tool is read
        SearchResult result = prefiltered.search(new ToolQuery("book a trip to Rome", null, null,
                new SearchFilters("finance", null, null, null), null, 2, RetrievalMode.DENSE));
        assertThat(result.hits()).extracting(SearchHit::toolId).containsExactlyInAnyOrder("currency", "stock");
    }

    @Test
    void aWriteWhileTheQueryIsStillEmbeddingIsSeenByThatSearch() throws Exception {
        CompletableFuture<float[]> rest = new CompletableFuture<>();
        CountDownLatch started = new CountDownLatch(1);
        float[] whole = TestCatalog.EMBEDDER.embedQuery("will I need an umbrella in Lisbon tomorrow");
        TextEmbedder slow = new DelayedEmbedder(whole, rest, started);
        try (ToolIndex own = new ToolIndex(slow, 0, 300)) {
            List<ToolManifest> real = TestCatalog.tools();
            for (int i = 0; i < real.size(); i++) {
                own.upsert(real.get(i), realVectors.get(i));
            }
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<SearchResult> search = pool.submit(() -> own.search(ToolQuery.text("umbrella", 3)));
                started.await();
                own.remove("weather"); // before or after the first pass: either way the search must not see it
                rest.complete(whole);
                assertThat(search.get().hits()).isNotEmpty().extracting(SearchHit::toolId).doesNotContain("weather");
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** The test catalog's embedder, except that a query's second half arrives when the test says so. */
    @Test
    void anEmbedderWiderThanTheSignScoreCanCountIsPrefilteredOnItsLeadingComponents() {
        // 3,000 components, more than QuantizedVectors.MAX_SIGN_BITS: the index keeps signs of the leading ones only
        int dim = 3_000;
        Random random = new Random(5);
        java.util.Map<String, float[]> vectors = new java.util.HashMap<>();
        TextEmbedder wide = new TextEmbedder() {
            @Override
            public String modelId() {
                return "wide-test";
            }

            @Override
            public int dimension() {
                return dim;
            }

            @Override
            public float[] embedQuery(String text) {
                return vectors.computeIfAbsent(text, t -> RandomVectors.unit(random, dim));
            }

            @Override
            public float[] embedPassage(String text) {
                return embedQuery(text);
            }
        };
        assertThat(wide.primaryDimension()).isGreaterThan(QuantizedVectors.MAX_SIGN_BITS);
        try (ToolIndex index = new ToolIndex(wide, 0, 20)) {
            List<ToolIndex.IndexedTool> tools = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                ToolManifest t = TestCatalog.tool("wide-" + i, "WIDE_" + i, "Wide " + i, "Wide tool " + i + ".",
                        "wide", "wide", Risk.READ_ONLY, "{}");
                tools.add(new ToolIndex.IndexedTool(t, new ToolVectors("wide-test", wide.embedQuery("needle " + i), null),
                        null));
            }
            index.upsertAll(tools);
            SearchHit top = index.search(ToolQuery.text("needle 137", 5)).hits().get(0);
            assertThat(top.toolId()).isEqualTo("wide-137"); // its vector is the query's own
        }
    }

    private static final class DelayedEmbedder implements TextEmbedder {
        private final float[] whole;
        private final CompletableFuture<float[]> rest;
        private final CountDownLatch started;

        DelayedEmbedder(float[] whole, CompletableFuture<float[]> rest, CountDownLatch started) {
            this.whole = whole;
            this.rest = rest;
            this.started = started;
        }

        @Override
        public String modelId() {
            return TestCatalog.EMBEDDER.modelId();
        }

        @Override
        public int dimension() {
            return TestCatalog.EMBEDDER.dimension();
        }

        @Override
        public int primaryDimension() {
            return TestCatalog.EMBEDDER.primaryDimension();
        }

        @Override
        public float[] embedQuery(String text) {
            return startQuery(text).full();
        }

        @Override
        public QueryEmbedding startQuery(String text) {
            started.countDown();
            return new QueryEmbedding(java.util.Arrays.copyOf(whole, primaryDimension()), rest);
        }

        @Override
        public float[] embedPassage(String text) {
            return TestCatalog.EMBEDDER.embedPassage(text);
        }
    }
}
