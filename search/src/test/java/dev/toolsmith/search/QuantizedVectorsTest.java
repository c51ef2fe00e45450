package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantizedVectorsTest {

    private final Random random = new Random(7);

    @Test
    void dotOfUnitVectorsIsWithinOnePercentOfTheFloatDot() {
        int dim = 768;
        QuantizedVectors table = new QuantizedVectors(dim, 2);
        for (int trial = 0; trial < 200; trial++) {
            float[] a = unit(dim);
            float[] b = blend(a, unit(dim), random.nextFloat());
            table.set(1, b);
            double exact = HybridRanker.dot(a, b);
            assertThat((double) table.dot(QuantizedVectors.query(a), 1, dim)).isCloseTo(exact, within(0.01));
        }
    }

    @Test
    void aPrefixLengthDotsOnlyTheLeadingComponents() {
        QuantizedVectors table = new QuantizedVectors(4, 1);
        table.set(0, new float[] {1, 0, 0, 1});
        QuantizedVectors.Query q = QuantizedVectors.query(new float[] {1, 0, 0, 1});
        assertThat(table.dot(q, 0, 2)).isCloseTo(1f, within(0.02f));
        assertThat(table.dot(q, 0, 4)).isCloseTo(2f, within(0.04f));
    }

    @Test
    void clearedAndZeroRowsScoreZeroAndGrowingKeepsRows() {
        QuantizedVectors table = new QuantizedVectors(3, 1);
        table.set(0, new float[] {0.6f, 0.8f, 0});
        table.ensureCapacity(5);
        table.set(4, new float[] {0, 0, 0});
        QuantizedVectors.Query q = QuantizedVectors.query(new float[] {0.6f, 0.8f, 0});
        assertThat(table.dot(q, 0, 3)).isCloseTo(1f, within(0.02f));
        assertThat(table.dot(q, 4, 3)).isZero();
        table.clear(0);
        assertThat(table.dot(q, 0, 3)).isZero();
    }

    private float[] unit(int dim) {
        float[] v = new float[dim];
        double norm = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < dim; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    private static float[] blend(float[] a, float[] b, float t) {
        float[] out = new float[a.length];
        double norm = 0;
        for (int i = 0; i < a.length; i++) {
            out[i] = t * a[i] + (1 - t) * b[i];
            norm += out[i] * out[i];
        }
        for (int i = 0; i < a.length; i++) {
            out[i] /= (float) Math.sqrt(norm);
        }
        return out;
    }
}
