package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.search.embed.ForwardingTextEmbedder;
import dev.toolsmith.search.embed.QueryEmbedding;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cascade: a query whose BM25 answer is already confident enough to substitute is answered without
 * embedding it; any other query is embedded and ranked by the hybrid. Counts the real models' query calls.
 */
class CascadeTest {

    private static final CountingEmbedder EMBEDDER = new CountingEmbedder();
    private static ToolIndex cascading;
    private static ToolIndex embedding;

    @BeforeAll
    static void build() {
        cascading = new ToolIndex(EMBEDDER, true);
        embedding = new ToolIndex(EMBEDDER, false);
        List<ToolManifest> tools = new java.util.ArrayList<>(TestCatalog.tools());
        tools.addAll(fillers());
        List<ToolVectors> vectors = cascading.vectorizeAll(tools);
        List<ToolIndex.IndexedTool> batch = java.util.stream.IntStream.range(0, tools.size())
                .mapToObj(i -> new ToolIndex.IndexedTool(tools.get(i), vectors.get(i), null)).toList();
        cascading.upsertAll(batch);
        embedding.upsertAll(batch);
    }

    @AfterAll
    static void close() {
        cascading.close();
        embedding.close();
    }

    /**
     * Forty unrelated tools: in a catalog of ten, no score can stand out by more than three deviations
     * (√(n−1)), so BM25's confidence rarely clears the threshold there.
     */
    private static List<ToolManifest> fillers() {
        String[] things = {"invoice", "parcel", "ticket", "playlist", "recipe", "sensor", "backup", "invoice line",
            "warehouse", "employee", "vehicle", "podcast", "badge", "coupon", "survey", "printer", "license",
            "shipment", "greenhouse", "library book"};
        String[] actions = {"ARCHIVE", "AUDIT"};
        List<ToolManifest> out = new java.util.ArrayList<>();
        for (String thing : things) {
            for (String action : actions) {
                String verb = action + "_" + thing.toUpperCase(java.util.Locale.ROOT).replace(' ', '_');
                out.add(TestCatalog.tool(verb.toLowerCase(java.util.Locale.ROOT), verb, action.toLowerCase(java.util.Locale.ROOT)
                        + " " + thing, "Lets an operator " + action.toLowerCase(java.util.Locale.ROOT) + " a " + thing
                        + " record in the back office.", "backoffice", "records", dev.toolsmith.contracts.tool.Risk.WRITE_LOCAL,
                        "{\"type\":\"object\",\"properties\":{\"recordId\":{\"type\":\"string\"}}}"));
            }
        }
        return out;
    }

    private static SearchResult step(ToolIndex index, String verb, List<String> inputs) {
        return index.search(new ToolQuery(VerbNormalizer.normalize(verb), verb, inputs, null, null, 5,
                RetrievalMode.HYBRID));
    }

    @Test
    void aStepThatNamesTheToolAndItsParametersIsDecidedWithoutTheEmbedding() {
        int before = EMBEDDER.queries.get();
        SearchResult r = step(cascading, "GET_WEATHER_FORECAST", List.of("city", "days"));
        assertThat(EMBEDDER.queries.get()).isEqualTo(before);
        assertThat(r.lexicalOnly()).isTrue();
        assertThat(r.hits().get(0).toolId()).isEqualTo("weather");
        assertThat(r.confidence()).isGreaterThanOrEqualTo(SearchDefaults.SUBSTITUTION_THRESHOLD);
        assertThat(r.hits().get(0).matchedOn()).containsExactly("lexical");
    }

    @Test
    void aStepWhoseWordsDoNotDecideIsEmbedded() {
        int before = EMBEDDER.queries.get();
        SearchResult r = step(cascading, "FIND_OUT_IF_I_NEED_AN_UMBRELLA", List.of("town"));
        assertThat(EMBEDDER.queries.get()).isEqualTo(before + 1);
        assertThat(r.lexicalOnly()).isFalse();
        assertThat(r.hits().get(0).matchedOn()).contains("semantic");
    }

    @Test
    void freeTextIsAlwaysEmbeddedEvenWhenItNamesTheTool() {
        int before = EMBEDDER.queries.get();
        SearchResult r = cascading.search(ToolQuery.text("get weather forecast for a city and days", 3));
        assertThat(EMBEDDER.queries.get()).isEqualTo(before + 1);
        assertThat(r.lexicalOnly()).isFalse();
        assertThat(r.hits().get(0).toolId()).isEqualTo("weather");
    }

    @Test
    void withoutTheCascadeEveryQueryIsEmbeddedAndTheTopHitIsTheSame() {
        int before = EMBEDDER.queries.get();
        SearchResult r = step(embedding, "GET_WEATHER_FORECAST", List.of("city", "days"));
        assertThat(EMBEDDER.queries.get()).isEqualTo(before + 1);
        assertThat(r.lexicalOnly()).isFalse();
        assertThat(r.hits().get(0).toolId()).isEqualTo("weather");
    }

    @Test
    void filtersStillApplyWhenTheLexicalEvidenceDecides() {
        SearchResult r = cascading.search(new ToolQuery(VerbNormalizer.normalize("GET_WEATHER_FORECAST"),
                "GET_WEATHER_FORECAST", List.of("city", "days"), null, t -> !t.id().equals("weather"), 5,
                RetrievalMode.HYBRID));
        assertThat(r.hits()).extracting(h -> h.toolId()).doesNotContain("weather");
    }

    /** The test ensemble, counting the queries it is asked to embed. */
    private static final class CountingEmbedder extends ForwardingTextEmbedder {
        final AtomicInteger queries = new AtomicInteger();

        CountingEmbedder() {
            super(TestCatalog.EMBEDDER);
        }

        @Override
        public float[] embedQuery(String text) {
            queries.incrementAndGet();
            return delegate.embedQuery(text);
        }

        @Override
        public QueryEmbedding startQuery(String text) {
            queries.incrementAndGet();
            return delegate.startQuery(text);
        }
    }
}
