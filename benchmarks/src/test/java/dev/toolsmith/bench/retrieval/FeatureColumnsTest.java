package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.search.RetrievalMode;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.search.embed.TextEmbedder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drivers' copy of the confidence features ({@link CascadeCheck#FEATURES}) names every column the search writes
 * into a dump: a feature added to the search without it would shift every {@code --zero-*} option by a column.
 */
class FeatureColumnsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Word-count vectors over 16 buckets: enough for the index to rank, no model to load. */
    private static final class BucketEmbedder implements TextEmbedder {
        @Override
        public String modelId() {
            return "buckets-16";
        }

        @Override
        public int dimension() {
            return 16;
        }

        @Override
        public float[] embedQuery(String text) {
            return embedPassage(text);
        }

        @Override
        public float[] embedPassage(String text) {
            float[] v = new float[16];
            for (String word : text.toLowerCase().split("\\W+")) {
                if (!word.isEmpty()) {
                    v[Math.floorMod(java.util.Arrays.hashCode(word.getBytes(StandardCharsets.UTF_8)), 16)] += 1;
                }
            }
            double norm = 0;
            for (float x : v) {
                norm += x * x;
            }
            for (int i = 0; i < v.length && norm > 0; i++) {
                v[i] /= (float) Math.sqrt(norm);
            }
            return v;
        }
    }

    private static ToolManifest tool(String id, String verb, String description) throws Exception {
        return new ToolManifest(id, verb, id, description, ToolSourceType.OPENAPI, "test", null, List.of(),
                JSON.readTree("{\"type\":\"object\",\"properties\":{\"amount\":{\"type\":\"number\"}}}"), null,
                Risk.READ_ONLY, null, null, 1, null);
    }

    @Test
    void everyFeatureTheSearchWritesHasAColumnName() throws Exception {
        try (ToolIndex index = new ToolIndex(new BucketEmbedder(), false)) {
            index.upsert(tool("convert_amount", "CONVERT_AMOUNT", "Convert an amount between currencies"));
            index.upsert(tool("list_rates", "LIST_RATES", "List today's exchange rates"));
            for (ToolQuery query : List.of(
                    new ToolQuery("convert currency", "CONVERT_CURRENCY", List.of("amount"), null, null, 5,
                            RetrievalMode.HYBRID),
                    ToolQuery.text("convert an amount of money", 5))) {
                SearchResult r = index.search(query);
                assertThat(r.hits()).isNotEmpty();
                assertThat(r.confidenceFeatures()).hasSize(CascadeCheck.FEATURES.size());
            }
        }
    }
}
