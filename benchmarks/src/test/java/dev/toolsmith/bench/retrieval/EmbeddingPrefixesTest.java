package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.search.embed.EmbeddingModelChoice;
import dev.toolsmith.search.embed.OnnxTextEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * e5 was trained with "query: " and "passage: " in front of the two sides; a tool embedded without its prefix, or
 * with it twice, would sit elsewhere in the space. Lives here because e5's artifact is a benchmark dependency.
 */
class EmbeddingPrefixesTest {

    private static final String TEXT = "convert an amount from one currency to another";

    @Test
    void e5EmbedsAQueryAndAPassageOfTheSameTextDifferentlyAndAPassageAloneAsInABatch() {
        try (OnnxTextEmbedder e5 = OnnxTextEmbedder.create(EmbeddingModelChoice.E5_SMALL_V2_Q)) {
            float[] passage = e5.embedPassage(TEXT);
            assertThat(e5.embedPassages(List.of("", TEXT)).get(1)).containsExactly(passage);
            assertThat(e5.embedQueries(List.of(TEXT)).get(0)).containsExactly(e5.embedQuery(TEXT));
            assertThat(cosine(e5.embedQuery(TEXT), passage)).isLessThan(0.999);
        }
    }

    @Test
    void aModelWithoutPrefixesEmbedsAQueryAndAPassageOfTheSameTextAlike() {
        try (OnnxTextEmbedder miniLm = OnnxTextEmbedder.create(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q)) {
            assertThat(cosine(miniLm.embedQuery(TEXT), miniLm.embedPassages(List.of(TEXT)).get(0)))
                    .isGreaterThan(0.9999);
        }
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
