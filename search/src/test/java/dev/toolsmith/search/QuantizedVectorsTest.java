package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class QuantizedVectorsTest {

    private final Random random = new Random(7);

    @Test
    void dotOfUnitVectorsIsWithinOnePercentOfTheFloatDot() {
        int dim = 768;
        QuantizedVectors table = new QuantizedVectors(dim, 384, 2);
        for (int trial = 0; trial < 200; trial++) {
            float[] a = unit(dim);
            float[] b = blend(a, unit(dim), random.nextFloat());
            table.set(1, b);
            double exact = HybridRanker.dot(a, b);
            assertThat((double) table.dot(QuantizedVectors.query(a), 1)).isCloseTo(exact, within(0.01));
        }
    }

    @Test
    void aRangeDotsOnlyItsComponentsAndTheRangesAddUpToTheWhole() {
        QuantizedVectors table = new QuantizedVectors(4, 2, 1);
        table.set(0, new float[] {1, 0, 0, 1});
        float[] v = {1, 0, 0, 1};
        assertThat(table.dot(QuantizedVectors.query(v, 0, 2), 0)).isCloseTo(1f, within(0.02f));
        assertThat(table.dot(QuantizedVectors.query(v), 0)).isCloseTo(2f, within(0.04f));
        float[] w = {0.3f, -0.5f, 0.7f, 0.1f};
        table.set(0, w);
        float halves = table.dot(QuantizedVectors.query(v, 0, 2), 0) + table.dot(QuantizedVectors.query(v, 2, 4), 0);
        assertThat(halves).isCloseTo((float) HybridRanker.dot(v, w), within(0.02f));
    }

    @Test
    void signScoreIsTheQueryDotWithTheRowSignsUpToFourBitRounding() {
        int dim = 200;
        int signBits = 130;
        QuantizedVectors table = new QuantizedVectors(dim, signBits, 1);
        float[] q = unit(dim);
        float max = 0;
        double sumAbsQ = 0;
        for (int i = 0; i < signBits; i++) {
            max = Math.max(max, Math.abs(q[i]));
            sumAbsQ += Math.abs(q[i]);
        }
        float step = max / 15; // one unit of the 4-bit magnitudes
        QuantizedVectors.SignQuery sq = table.signQuery(q);
        for (int trial = 0; trial < 100; trial++) {
            float[] v = blend(q, unit(dim), random.nextFloat());
            table.set(0, v);
            double bySigns = 0;
            for (int i = 0; i < signBits; i++) {
                bySigns += v[i] > 0 ? q[i] : -q[i];
            }
            int score = table.signScore(sq, 0);
            assertThat(score).isBetween(0, sq.maxScore());
            // score = (Σ q·sign(row) + Σ |q|) / 2 in units of step; each magnitude is off by at most half a step
            assertThat(2.0 * score * step - sumAbsQ).isCloseTo(bySigns, within((double) signBits * step));
        }
        table.set(0, q);
        int best = table.signScore(sq, 0);
        float[] minus = q.clone();
        for (int i = 0; i < dim; i++) {
            minus[i] = -minus[i];
        }
        table.set(0, minus);
        assertThat(table.signScore(sq, 0)).isLessThan(best);
        assertThat(best).isEqualTo(sq.maxScore()); // every sign agrees with the query's own
        assertThat(table.signScore(sq, 0)).isZero(); // none does
    }

    @Test
    void readingAheadStopsAtTheEndOfTheSlotsAndOfTheTable() {
        int dim = 40;
        int rows = QuantizedVectors.READ_AHEAD + 5;
        QuantizedVectors table = new QuantizedVectors(dim, 20, rows);
        for (int slot = 0; slot < rows; slot++) {
            table.set(slot, unit(dim));
        }
        QuantizedVectors.Query rest = QuantizedVectors.query(unit(dim), 20, dim); // the second half's range
        int[] slots = {rows - 1, 0, 3};
        float[] before = {table.dot(rest, rows - 1), table.dot(rest, 0), table.dot(rest, 3)};
        table.readAhead(rest, slots, 1); // two rows left: reads those, never past the array's end
        table.readAhead(rest, slots, slots.length); // nothing left
        assertThat(new float[] {table.dot(rest, rows - 1), table.dot(rest, 0), table.dot(rest, 3)}).isEqualTo(before);
    }

    @Test
    void aSignWidthWhoseScoreCouldOverflowAShortIsRefused() {
        int tooMany = QuantizedVectors.MAX_SIGN_BITS + 1;
        assertThatThrownBy(() -> new QuantizedVectors(tooMany + 1, tooMany, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sign bits");
    }

    @Test
    void clearedAndZeroRowsScoreZeroAndGrowingKeepsRows() {
        QuantizedVectors table = new QuantizedVectors(3, 3, 1);
        table.set(0, new float[] {0.6f, 0.8f, 0});
        table.ensureCapacity(5);
        table.set(4, new float[] {0, 0, 0});
        QuantizedVectors.Query q = QuantizedVectors.query(new float[] {0.6f, 0.8f, 0});
        assertThat(table.dot(q, 0)).isCloseTo(1f, within(0.02f));
        assertThat(table.dot(q, 4)).isZero();
        table.clear(0);
        assertThat(table.dot(q, 0)).isZero();
    }

    private float[] unit(int dim) {
        return RandomVectors.unit(random, dim);
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
