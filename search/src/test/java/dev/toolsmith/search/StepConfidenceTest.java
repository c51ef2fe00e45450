package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The novel-verb path's query (verb in words + description, the verb, the input names) over the demo's FX
 * API next to unrelated tools: the confidence comes from the step-shaped model and its evidence.
 */
class StepConfidenceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static ToolIndex index;
    /** The same catalog scored by the step models fitted with steps whose tool is absent. */
    private static ToolIndex cautious;

    @BeforeAll
    static void build() throws Exception {
        index = new ToolIndex(TestCatalog.EMBEDDER);
        cautious = new ToolIndex(TestCatalog.EMBEDDER, true, StepConfidence.CAUTIOUS);
        List<ToolManifest> tools = new ArrayList<>(TestCatalog.tools().stream()
                .filter(t -> !t.id().equals("currency")).toList());
        tools.add(fx("fx-rates:convert_amount", "CONVERT_AMOUNT", "convert_amount",
                "Convert an amount between currencies\n\nConverts an amount of money from one currency to another at "
                        + "today's reference rate.",
                "{\"type\":\"object\",\"required\":[\"from\",\"to\",\"amount\"],\"properties\":{"
                        + "\"from\":{\"type\":\"string\",\"description\":\"ISO 4217 code of the source currency\"},"
                        + "\"to\":{\"type\":\"string\",\"description\":\"ISO 4217 code of the target currency\"},"
                        + "\"amount\":{\"type\":\"number\",\"description\":\"the amount to convert\"}}}"));
        tools.add(fx("fx-rates:list_currencies", "LIST_CURRENCIES", "list_currencies",
                "List supported currencies\n\nThe ISO 4217 codes this service quotes, with their names.",
                "{\"type\":\"object\",\"properties\":{}}"));
        for (ToolManifest t : tools) {
            index.upsert(t);
            cautious.upsert(t);
        }
    }

    @AfterAll
    static void close() {
        index.close();
        cautious.close();
    }

    private static ToolManifest fx(String id, String verb, String name, String description, String schema)
            throws Exception {
        return new ToolManifest(id, verb, name, description, ToolSourceType.OPENAPI, "fx-rates", null, List.of(),
                JSON.readTree(schema), null, Risk.READ_ONLY, null, null, 1, null);
    }

    private static SearchResult step(String verb, String description, List<String> inputs) {
        return index.search(stepQuery(verb, description, inputs));
    }

    private static ToolQuery stepQuery(String verb, String description, List<String> inputs) {
        String text = VerbNormalizer.normalize(verb) + (description == null ? "" : " " + description);
        return new ToolQuery(text, verb, inputs, null, null, 5, RetrievalMode.HYBRID);
    }

    @Test
    void theDemoStepIsConfidentOnSearchEvidenceAlone() {
        SearchResult r = step("CONVERT_CURRENCY", "Convert 100 euros into US dollars", List.of("amount", "from", "to"));
        assertThat(r.hits().get(0).toolId()).isEqualTo("fx-rates:convert_amount");
        assertThat(r.confidence()).isGreaterThanOrEqualTo(SearchDefaults.SUBSTITUTION_THRESHOLD);
    }

    @Test
    void inputsThatFitNoParameterLowerTheConfidence() {
        SearchResult fitting = step("CONVERT_CURRENCY", null, List.of("amount", "from", "to"));
        SearchResult foreign = step("CONVERT_CURRENCY", null, List.of("webhook", "threshold_pct", "colour"));
        assertThat(fitting.hits().get(0).toolId()).isEqualTo("fx-rates:convert_amount");
        assertThat(foreign.confidence()).isLessThan(fitting.confidence());
    }

    @Test
    void theRerankingEvidenceOfAStepIsTheFusedOrderWithTheToolsFit() {
        String verb = "CONVERT_CURRENCY";
        List<ToolIndex.CandidateEvidence> rows = index.rerankingEvidence(new ToolQuery(VerbNormalizer.normalize(verb),
                verb, List.of("amount", "from", "to"), null, null, 5, RetrievalMode.HYBRID));
        assertThat(rows).hasSizeLessThanOrEqualTo(CandidateReranker.DEPTH).isNotEmpty();
        for (int i = 1; i < rows.size(); i++) {
            assertThat(rows.get(i).fused()).isLessThanOrEqualTo(rows.get(i - 1).fused());
        }
        ToolIndex.CandidateEvidence fx = rows.stream().filter(r -> r.toolId().equals("fx-rates:convert_amount"))
                .findFirst().orElseThrow();
        assertThat(fx.features()).hasSize(CandidateReranker.FEATURES.size());
        assertThat(fx.features()[CandidateReranker.FEATURES.indexOf("inputFit")]).isEqualTo(1.0);
        assertThat(fx.features()[CandidateReranker.FEATURES.indexOf("requiredUnfed")]).isZero();
        assertThat(index.rerankingEvidence(ToolQuery.text("   ", 5))).isEmpty();
    }

    @Test
    void aStepNothingServesIsNotConfident() {
        SearchResult r = step("RESERVE_MEETING_ROOM", "Reserve a meeting room for six people in the Berlin office",
                List.of("office", "people", "day"));
        assertThat(r.confidence()).isLessThan(SearchDefaults.SUBSTITUTION_THRESHOLD);
    }

    @Test
    void withItsToolAbsentTheDemoStepIsNotConfidentUnderTheCautiousModels() {
        // the catalog without convert_amount: the FX API's other operation is the best remaining match
        ToolQuery asked = stepQuery("CONVERT_CURRENCY", "Convert 100 euros into US dollars", List.of("amount", "from", "to"))
                .withAllowed(tool -> !tool.id().equals("fx-rates:convert_amount"));
        SearchResult standard = index.search(asked);
        SearchResult careful = cautious.search(asked);
        assertThat(careful.hits().get(0).toolId()).isNotEqualTo("fx-rates:convert_amount");
        assertThat(careful.confidence()).isLessThan(SearchDefaults.SUBSTITUTION_THRESHOLD)
                .isLessThan(standard.confidence());
    }

    @Test
    void theCautiousModelsStillServeTheDemoStepWhenItsToolIsThere() {
        SearchResult careful = cautious.search(stepQuery("CONVERT_CURRENCY", "Convert 100 euros into US dollars",
                List.of("amount", "from", "to")));
        assertThat(careful.hits().get(0).toolId()).isEqualTo("fx-rates:convert_amount");
        assertThat(careful.confidence()).isGreaterThanOrEqualTo(SearchDefaults.SUBSTITUTION_THRESHOLD);
    }
}
