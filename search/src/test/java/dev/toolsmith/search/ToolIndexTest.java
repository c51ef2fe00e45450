package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ToolIndexTest {

    private static ToolIndex index;

    @BeforeAll
    static void build() {
        index = TestCatalog.index();
    }

    @AfterAll
    static void close() {
        index.close();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "how many euros do I get for 250 US dollars?|currency",
        "will I need an umbrella in Lisbon tomorrow|weather",
        "get us a dinner spot for four people at 8pm at Chez Marcel|table",
        "let my boss know by mail that I'm running late|email",
        "what is 'good morning' in Japanese|translate",
        "how is Apple trading today|stock",
        "I need a plane ticket from Paris to Berlin next Friday|flight",
        "put a meeting with Anna on my agenda for Tuesday 10am|calendar",
        "give me the gist of this long report|summarize"
    })
    void paraphrasedRequestsFindTheRightToolFirst(String query, String expected) {
        SearchResult result = index.search(ToolQuery.text(query, 3));
        assertThat(result.hits()).isNotEmpty();
        assertThat(result.hits().get(0).toolId()).isEqualTo(expected);
    }

    @Test
    void rawPlannerVerbsMatchThroughNormalisation() {
        SearchResult result = index.search(new ToolQuery(null, "CONVERT_CURRENCY", null, null, null, 3, null));
        assertThat(result.hits().get(0).toolId()).isEqualTo("currency");
        result = index.search(new ToolQuery(null, "bookFlight", null, null, null, 3, RetrievalMode.BM25));
        assertThat(result.hits().get(0).toolId()).isEqualTo("flight");
    }

    @Test
    void theAccessRuleIsAskedOncePerToolPerSearchAndOneThatThrowsRefuses() {
        // the caller's rule may be costly (an allowed-callers lookup): the dense and the lexical list share one answer
        java.util.Map<String, Integer> asked = new java.util.HashMap<>();
        SearchResult result = index.search(ToolQuery.text("convert currency euros dollars", 5).withAllowed(t -> {
            asked.merge(t.id(), 1, Integer::sum);
            if (t.id().equals("stock")) {
                throw new IllegalStateException("the rule cannot decide");
            }
            return !t.id().equals("currency");
        }));
        assertThat(asked).isNotEmpty().allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
        assertThat(result.hits()).extracting(SearchHit::toolId).doesNotContain("currency", "stock").isNotEmpty();
        // every step of the cascade too: a step whose BM25 answer is refused is answered from what the rule allows
        asked.clear();
        result = index.search(new ToolQuery(null, "CONVERT_CURRENCY", List.of("amount", "from", "to"), null,
                t -> asked.merge(t.id(), 1, Integer::sum) > 0 && !t.id().equals("currency"), 3, null));
        assertThat(result.hits()).extracting(SearchHit::toolId).doesNotContain("currency");
        assertThat(asked).isNotEmpty().allSatisfy((id, times) -> assertThat(times).as(id).isEqualTo(1));
    }

    @Test
    void filtersApplyBeforeTheLimitSoTheLimitIsStillFilled() {
        // Every finance tool ranks below travel tools for this query, yet both must come back.
        SearchResult result = index.search(new ToolQuery("book a trip to Rome", null, null,
                new SearchFilters("finance", null, null, null), null, 2, null));
        assertThat(result.hits()).extracting(SearchHit::toolId).containsExactlyInAnyOrder("currency", "stock");

        result = index.search(new ToolQuery("send a message", null, null,
                new SearchFilters(null, null, List.of(Risk.READ_ONLY), null), null, 4, null));
        assertThat(result.hits()).hasSize(4).allSatisfy(h -> assertThat(h.risk()).isEqualTo(Risk.READ_ONLY));

        result = index.search(new ToolQuery("send a message", null, null, null,
                t -> !t.id().equals("email") && !t.id().equals("translate"), 3, null));
        assertThat(result.hits()).hasSize(3).extracting(SearchHit::toolId).doesNotContain("email", "translate");

        result = index.search(new ToolQuery("weather", null, null, new SearchFilters(null, "dining", null, null),
                null, 5, null));
        assertThat(result.hits()).extracting(SearchHit::toolId).containsExactly("table");
    }

    @Test
    void disabledToolsAreNeverReturnedAndComeBackWhenEnabled() {
        try (ToolIndex own = TestCatalog.index()) {
            assertThat(own.setStatus("weather", PluginStatus.DISABLED)).isTrue();
            for (String q : List.of("weather forecast", "GET_WEATHER_FORECAST", "rain tomorrow")) {
                assertThat(own.search(ToolQuery.text(q, 10)).hits()).extracting(SearchHit::toolId)
                        .doesNotContain("weather");
            }
            assertThat(own.search(new ToolQuery("weather", null, null,
                    new SearchFilters(null, null, null, "DISABLED"), null, 10, null)).hits()).isEmpty();
            assertThat(own.select("weather forecast", 100_000, List.of("weather")).tools())
                    .extracting(ToolManifest::id).doesNotContain("weather");

            own.setStatus("weather", PluginStatus.DEGRADED);
            assertThat(own.search(ToolQuery.text("weather forecast", 1)).hits().get(0).toolId()).isEqualTo("weather");
            assertThat(own.search(new ToolQuery("weather forecast", null, null,
                    new SearchFilters(null, null, null, "ENABLED"), null, 10, null)).hits())
                    .extracting(SearchHit::toolId).doesNotContain("weather");
        }
    }

    @Test
    void replaceAndRemoveTakeEffectImmediately() {
        try (ToolIndex own = TestCatalog.index()) {
            own.setStatus("delete", PluginStatus.DISABLED);
            ToolManifest renamed = TestCatalog.tool("delete", "SHRED_DOCUMENT", "Shredder",
                    "Shreds a paper document into confetti.", "office", "files", Risk.DESTRUCTIVE, "{}");
            own.upsert(renamed);
            assertThat(own.status("delete")).contains(PluginStatus.DISABLED);
            own.setStatus("delete", PluginStatus.ENABLED);
            assertThat(own.search(ToolQuery.text("shred into confetti", 1)).hits().get(0).toolId()).isEqualTo("delete");

            assertThat(own.remove("delete")).isTrue();
            assertThat(own.remove("delete")).isFalse();
            assertThat(own.size()).isEqualTo(TestCatalog.tools().size() - 1);
            assertThat(own.search(ToolQuery.text("shred into confetti", 20)).hits()).extracting(SearchHit::toolId)
                    .doesNotContain("delete");
        }
    }

    @Test
    void storedVectorsReloadWithoutTheModelRecomputingThem() {
        ToolManifest tool = TestCatalog.tools().get(0);
        ToolVectors vectors = index.vectorize(tool);
        ToolVectors reloaded = ToolVectors.fromBytes(vectors.toBytes());
        assertThat(reloaded.modelId()).isEqualTo(vectors.modelId());
        assertThat(reloaded.tool()).containsExactly(vectors.tool());
        assertThat(reloaded.title()).containsExactly(vectors.title());
        try (ToolIndex own = new ToolIndex(TestCatalog.EMBEDDER)) {
            own.upsert(tool, reloaded);
            assertThat(own.search(ToolQuery.text("exchange rate dollars to yen", 1)).hits().get(0).toolId())
                    .isEqualTo(tool.id());
            ToolVectors foreign = new ToolVectors("another-model", vectors.tool(), null);
            assertThatThrownBy(() -> own.upsert(tool, foreign)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void selectStaysWithinBudgetPuttingCoreToolsFirst() {
        int all = TestCatalog.tools().stream().mapToInt(ToolTokens::count).sum();
        for (int budget : new int[] {0, 1, 40, 75, 150, 300, all - 1, all, all * 2}) {
            Selection s = index.select("plan a trip: flight, weather and a table for dinner", budget,
                    List.of("email", "calendar"));
            assertThat(s.tokensUsed()).isLessThanOrEqualTo(budget);
            assertThat(s.tools().stream().mapToInt(ToolTokens::count).sum()).isEqualTo(s.tokensUsed());
            assertThat(s.tools().size() + s.omitted()).isEqualTo(TestCatalog.tools().size());
        }
        Selection roomy = index.select("plan a trip: flight, weather and a table for dinner", all,
                List.of("email", "calendar"));
        assertThat(roomy.tools()).hasSize(TestCatalog.tools().size());
        assertThat(roomy.tools().subList(0, 2)).extracting(ToolManifest::id).containsExactly("email", "calendar");
        assertThat(roomy.omitted()).isZero();

        int emailAndCalendar = ToolTokens.count(TestCatalog.tools().get(3)) + ToolTokens.count(TestCatalog.tools().get(7));
        Selection tight = index.select("flight to Rome", emailAndCalendar + ToolTokens.count(TestCatalog.tools().get(6)),
                List.of("email", "calendar"));
        assertThat(tight.tools()).extracting(ToolManifest::id).startsWith("email", "calendar").contains("flight");
    }

    @Test
    void confidenceIsAProbabilityAndHigherForClearMatches() {
        SearchResult clear = index.search(ToolQuery.text("convert 100 US dollars to euros at today's exchange rate", 5));
        SearchResult vague = index.search(ToolQuery.text("do the thing", 5));
        for (SearchResult r : List.of(clear, vague)) {
            assertThat(r.confidence()).isBetween(0.0, 1.0);
            for (int i = 0; i < r.hits().size(); i++) {
                assertThat(r.hits().get(i).confidence()).isBetween(0.0, 1.0);
                if (i > 0) {
                    assertThat(r.hits().get(i).confidence()).isLessThanOrEqualTo(r.hits().get(0).confidence());
                    assertThat(r.hits().get(i).score()).isLessThanOrEqualTo(r.hits().get(i - 1).score());
                }
            }
        }
        assertThat(clear.confidence()).isGreaterThan(vague.confidence());
    }

    @Test
    void anyQueryTextYieldsResultsOrNothingButNeverThrows() {
        StringBuilder huge = new StringBuilder();
        while (huge.length() < 4096) {
            huge.append("convert currency 💱 ");
        }
        List<String> garbage = List.of("", " ", "\u0000\u0001\u0002", "🙂🙃🤖💥", "\uD800", "\uDFFF lone surrogate",
                "¿Dónde está el tiempo de mañana?", "明日の天気は？", "погода завтра", "الطقس غدا",
                "'; DROP TABLE tools; --", "*:* OR title:[* TO *] AND ~~~ \"unbalanced", "((((((((((",
                "\\u0000\\", "a".repeat(10_000), huge.toString(), "\t\n\r\f", "‮reversed‬ text",
                "AND OR NOT", "+-&&||!(){}[]^\"~*?:\\/");
        for (String q : garbage) {
            for (RetrievalMode mode : RetrievalMode.values()) {
                SearchResult r = index.search(new ToolQuery(q, q, List.of(q), null, null, 5, mode));
                assertThat(r).isNotNull();
                assertThat(r.hits().size()).isLessThanOrEqualTo(5);
                assertThat(r.confidence()).isBetween(0.0, 1.0);
                assertThat(index.rerankingEvidence(new ToolQuery(q, q, List.of(q), null, null, 5, mode)))
                        .hasSizeLessThanOrEqualTo(CandidateReranker.DEPTH);
            }
            assertThat(index.select(q, 200, List.of(q)).tokensUsed()).isLessThanOrEqualTo(200);
        }
        assertThat(index.search(new ToolQuery(null, null, null, null, null, 5, null)).hits()).isEmpty();
        // a plan step with the most inputs a search request may carry (100), every one of them hostile
        List<String> inputs = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            inputs.add(garbage.get(i % garbage.size()) + "_" + i);
        }
        SearchResult many = index.search(new ToolQuery("convert currency", "CONVERT_CURRENCY", inputs, null, null, 5,
                RetrievalMode.HYBRID));
        assertThat(many.hits()).isNotEmpty();
        assertThat(many.confidence()).isBetween(0.0, 1.0);
    }

    @Test
    void manyThreadsCanSearchWhileTheCatalogChanges() throws Exception {
        try (ToolIndex own = TestCatalog.index()) {
            List<ToolManifest> tools = TestCatalog.tools();
            List<ToolVectors> vectors = own.vectorizeAll(tools);
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    own.remove(tools.get(i % tools.size()).id());
                    own.upsert(tools.get(i % tools.size()), vectors.get(i % tools.size()));
                    own.setStatus(tools.get((i + 3) % tools.size()).id(),
                            i % 2 == 0 ? PluginStatus.DISABLED : PluginStatus.ENABLED);
                }
            });
            writer.start();
            for (int i = 0; i < 50; i++) {
                Set<String> ids = Set.copyOf(own.search(ToolQuery.text("weather in Rome", 10)).hits().stream()
                        .map(SearchHit::toolId).toList());
                assertThat(ids).hasSizeLessThanOrEqualTo(10);
            }
            writer.join();
            assertThat(own.size()).isEqualTo(tools.size());
        }
    }
}
