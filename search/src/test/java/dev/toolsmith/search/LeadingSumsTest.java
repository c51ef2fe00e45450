package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The candidates' cosines are summed in two parts, the first while the query's second model is still running: the
 * result must be the one {@link HybridRanker#dot} gives over the whole vector, bit for bit, or rankings and
 * confidences would move with the timing of a search.
 */
class LeadingSumsTest {

    private final Random random = new Random(11);

    @Test
    void aCosineCarriedOnFromTheLeadingHalfIsTheWholeDotBitForBit() {
        for (int dim : new int[] {768, 770, 8}) {
            int leading = dim == 8 ? 4 : 384;
            for (int trial = 0; trial < 500; trial++) {
                float[] query = vector(dim);
                ToolVectors tool = new ToolVectors("m", vector(dim), vector(dim));
                HybridRanker.LeadingSums sums = new HybridRanker.LeadingSums(leading);
                sums.add(3, java.util.Arrays.copyOf(query, leading), tool);

                assertThat(Double.doubleToRawLongBits(sums.toolCosine(3, query, tool)))
                        .isEqualTo(Double.doubleToRawLongBits(HybridRanker.dot(query, tool.tool())));
                assertThat(Double.doubleToRawLongBits(sums.titleCosine(3, query, tool)))
                        .isEqualTo(Double.doubleToRawLongBits(HybridRanker.dot(query, tool.title())));
            }
        }
    }

    @Test
    void aSlotWithoutSumsGetsTheWholeDot() {
        float[] query = vector(768);
        ToolVectors tool = new ToolVectors("m", vector(768), vector(768));
        HybridRanker.LeadingSums sums = new HybridRanker.LeadingSums(384);
        sums.add(1, java.util.Arrays.copyOf(query, 384), new ToolVectors("m", vector(768), vector(768)));

        assertThat(sums.toolCosine(2, query, tool)).isEqualTo(HybridRanker.dot(query, tool.tool()));
        assertThat(HybridRanker.LeadingSums.NONE.titleCosine(2, query, tool)).isEqualTo(HybridRanker.dot(query, tool.title()));
    }

    @Test
    void sumsAreCarriedOnlyOverAWholeNumberOfChainsShorterThanTheVector() {
        assertThat(HybridRanker.LeadingSums.possible(384, 768)).isTrue();
        assertThat(HybridRanker.LeadingSums.possible(384, 384)).as("a single model has no second half").isFalse();
        assertThat(HybridRanker.LeadingSums.possible(382, 768)).as("mid-chain").isFalse();
        assertThat(HybridRanker.LeadingSums.possible(0, 768)).isFalse();
    }

    private float[] vector(int dim) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian() * 0.05f;
        }
        return v;
    }
}
