package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arithmetic of the step calibration: pool-adjacent-violators, block merging, the map, cascade counting, folds. */
class StepCalibrationTest {

    private static final double[] EQUAL = {1, 1, 1, 1, 1, 1};

    @Test
    void adjacentViolatorsArePooledIntoIncreasingBlocks() {
        // sorted by probability the labels are 0, 1, 0, 1, 1, 1: the 1 and 0 in the middle pool to one block of 1/2
        double[] p = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
        int[] y = {0, 1, 0, 1, 1, 1};
        StepCalibration.Knots k = StepCalibration.isotonic(p, y, EQUAL, 0);
        assertThat(k.x()).containsExactly(new double[] {0, 0.1, 0.25, 0.5, 1}, within(1e-12));
        assertThat(k.y()).containsExactly(new double[] {0, 0, 0.5, 1, 1}, within(1e-12));
    }

    @Test
    void theOrderOfTheRowsDoesNotMatter() {
        StepCalibration.Knots sorted = StepCalibration.isotonic(new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6},
                new int[] {0, 1, 0, 1, 1, 1}, EQUAL, 0);
        StepCalibration.Knots shuffled = StepCalibration.isotonic(new double[] {0.4, 0.1, 0.6, 0.3, 0.5, 0.2},
                new int[] {1, 0, 1, 0, 1, 1}, EQUAL, 0);
        assertThat(shuffled.x()).containsExactly(sorted.x(), within(1e-12));
        assertThat(shuffled.y()).containsExactly(sorted.y(), within(1e-12));
    }

    @Test
    void blocksSmallerThanTheMinimumShareAreMergedIntoTheirClosestNeighbour() {
        // PAV gives {0.1}: 0, {0.2, 0.3}: 1/2, {0.4 .. 0.6}: 1; at a third of the weight the first block (0) is merged
        // into its only neighbour, then the 1/3 block has 3 of 6 rows and the top block 3
        double[] p = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
        int[] y = {0, 1, 0, 1, 1, 1};
        StepCalibration.Knots k = StepCalibration.isotonic(p, y, EQUAL, 1 / 3.0);
        assertThat(k.x()).containsExactly(new double[] {0, 0.2, 0.5, 1}, within(1e-12));
        assertThat(k.y()).containsExactly(new double[] {0, 1 / 3.0, 1, 1}, within(1e-12));
    }

    @Test
    void weightsCountRowsUnequally() {
        // a wrong row weighing three times a right one at the same probability: the block is 1/4 right
        StepCalibration.Knots k = StepCalibration.isotonic(new double[] {0.5, 0.5}, new int[] {0, 1}, new double[] {3, 1}, 0);
        assertThat(k.y()[1]).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void theMapIsLinearBetweenKnotsAndClampedOutside() {
        StepCalibration.Knots k = new StepCalibration.Knots(new double[] {0.2, 0.6, 0.8}, new double[] {0.1, 0.5, 0.9});
        assertThat(k.apply(0.4)).isCloseTo(0.3, within(1e-12));
        assertThat(k.apply(0.7)).isCloseTo(0.7, within(1e-12));
        assertThat(k.apply(0.1)).isEqualTo(0.1);
        assertThat(k.apply(0.9)).isEqualTo(0.9);
        assertThat(k.java()).isEqualTo("{{0.200000, 0.100000}, {0.600000, 0.500000}, {0.800000, 0.900000}}");
    }

    @Test
    void theCascadeTakesBm25sAnswerWhenItsCalibratedProbabilityClears() {
        double[] pHybrid = {0.96, 0.94, 0.50, 0.99};
        int[] yHybrid = {1, 1, 1, 0};
        double[] pBm25 = {0.10, 0.96, 0.10, 0.10};
        int[] yBm25 = {0, 0, 0, 0};
        // today: row 0 by the hybrid (right), row 1 by BM25 (wrong), row 3 by the hybrid (wrong)
        PriorShiftAnalysis.PrecisionCoverage today = StepCalibration.cascade(pHybrid, yHybrid, pBm25, yBm25, 0.95, null, null);
        assertThat(today.precision()).isCloseTo(1 / 3.0, within(1e-12));
        assertThat(today.coverage()).isEqualTo(0.75);
        // a map that lifts 0.5 above the threshold adds row 2; BM25's map lowers 0.96, so row 1 goes to the hybrid
        StepCalibration.Knots lift = new StepCalibration.Knots(new double[] {0, 0.4, 1}, new double[] {0, 0.95, 1});
        StepCalibration.Knots lower = new StepCalibration.Knots(new double[] {0, 1}, new double[] {0, 0.5});
        PriorShiftAnalysis.PrecisionCoverage mapped = StepCalibration.cascade(pHybrid, yHybrid, pBm25, yBm25, 0.95, lift, lower);
        assertThat(mapped.precision()).isCloseTo(0.75, within(1e-12));
        assertThat(mapped.coverage()).isEqualTo(1.0);
    }

    @Test
    void foldsSplitTheRowsIntoDisjointParts() {
        double[][] x = new double[12][];
        int[] y = new int[12];
        for (int r = 0; r < 12; r++) {
            x[r] = new double[] {r};
        }
        ConfidenceFit.Data d = new ConfidenceFit.Data("d", x, y);
        int seen = 0;
        for (int fold = 0; fold < StepCalibration.FOLDS; fold++) {
            ConfidenceFit.Data in = StepCalibration.rows(d, fold, true);
            ConfidenceFit.Data out = StepCalibration.rows(d, fold, false);
            assertThat(in.y().length + out.y().length).isEqualTo(12);
            int f = fold;
            assertThat(Arrays.stream(in.x()).allMatch(row -> (int) row[0] % StepCalibration.FOLDS == f)).isTrue();
            seen += in.y().length;
        }
        assertThat(seen).isEqualTo(12);
    }

    @Test
    void absentToolRowsAreMixedInAsWrongAnswersAtTheAskedShare(@TempDir Path dir) throws IOException {
        // 9 present steps (the third without hits), and 20 --without-gold rows whose first feature marks them
        StepDumpOptions.DumpPair present = pair(dir, "p", 9, 2, 0.0);
        StepDumpOptions.DumpPair absent = pair(dir, "x", 20, -1, 7.0);
        ConfidenceFit.Data[] mixed = StepCalibration.trainingPair(present, absent, 0.1);
        // round(0.1 / 0.9 * 9) = 1 absent row; the present row without hits is left out of both
        assertThat(mixed[0].y()).hasSize(9);
        assertThat(mixed[1].y()).hasSize(9);
        assertThat(mixed[0].x()[8][0]).isEqualTo(7.0);
        assertThat(mixed[0].y()[8]).isZero();
        assertThat(mixed[1].x()[8][1]).as("BM25's zLexical is left out").isZero();
        assertThat(mixed[0].x()[8][1]).isEqualTo(3.0);

        ConfidenceFit.Data[] half = StepCalibration.trainingPair(present, absent, 0.5);
        assertThat(half[0].y()).hasSize(8 + 9);
        assertThat(Arrays.stream(half[0].x()).filter(x -> x[0] == 7.0).count()).isEqualTo(9);
        ConfidenceFit.Data[] again = StepCalibration.trainingPair(present, absent, 0.5);
        assertThat(again[0].x()).as("the sample is seeded").isDeepEqualTo(half[0].x());
        assertThat(StepCalibration.trainingPair(present, null, 0)[0].y()).hasSize(8);
    }

    @Test
    void aToolAbsentPairThatIsNotOneIsRefusedByName(@TempDir Path dir) throws IOException {
        StepDumpOptions.DumpPair present = pair(dir, "p", 9, -1, 0.0);
        // a dump with the right tools present passed as the tool-absent one: its right answers would be relabelled
        assertThatThrownBy(() -> StepCalibration.trainingPair(present, present, 0.1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("p-hybrid.tsv:")
                .hasMessageContaining("row 1 is a right answer; a tool-absent pair comes from a --without-gold true run");
        // an older build's dump: another feature count
        Path h = Files.write(dir.resolve("old-hybrid.tsv"), List.of("0\t1\t2\t3", "0\t1\t2\t3"));
        Path b = Files.write(dir.resolve("old-bm25.tsv"), List.of("0\t1\t2\t3", "0\t1\t2\t3"));
        assertThatThrownBy(() -> StepCalibration.trainingPair(present, new StepDumpOptions.DumpPair(h, b), 0.1))
                .hasMessageContaining("3 features where the steps' own dumps have 2");
        // the two halves of a pair from different runs
        Path shorter = Files.write(dir.resolve("short-bm25.tsv"), List.of("0\t7.0\t3.0"));
        assertThatThrownBy(() -> StepCalibration.trainingPair(new StepDumpOptions.DumpPair(present.hybrid(), shorter), null, 0))
                .hasMessageContaining("the two dumps hold different queries (9 and 1 rows)");
    }

    @Test
    void mixedPrecisionCountsEveryClearedAbsentStepAsWrong() {
        PriorShiftAnalysis.PrecisionCoverage present = new PriorShiftAnalysis.PrecisionCoverage(0.99, 0.40);
        // 0.99 * 0.36 right of 0.36 + 0.1 * 0.1 cleared
        assertThat(StepCalibration.mixedPrecision(present, 0.10, 0.10)).isCloseTo(0.3564 / 0.37, within(1e-12));
        assertThat(StepCalibration.mixedPrecision(present, 0, 0.10)).isCloseTo(0.99, within(1e-12));
        assertThat(StepCalibration.mixedPrecision(new PriorShiftAnalysis.PrecisionCoverage(Double.NaN, 0), 0, 0.1)).isNaN();
    }

    /** A hybrid and a BM25 dump of {@code n} rows: label 1, features (marker, 3); row {@code noHits} has none. */
    private static StepDumpOptions.DumpPair pair(Path dir, String name, int n, int noHits, double marker) throws IOException {
        List<String> rows = new java.util.ArrayList<>();
        for (int r = 0; r < n; r++) {
            rows.add(r == noHits ? (marker > 0 ? "0" : "1") : (marker > 0 ? "0" : "1") + "\t" + marker + "\t3.0");
        }
        Path h = Files.write(dir.resolve(name + "-hybrid.tsv"), rows);
        Path b = Files.write(dir.resolve(name + "-bm25.tsv"), rows);
        return new StepDumpOptions.DumpPair(h, b);
    }

    @Test
    void aZeroedFeatureGetsNoWeightAndRowsWithoutHitsAreLeftAlone() {
        // the first feature separates the labels perfectly, the second is noise: zeroed, the first must weigh nothing
        double[][] x = {{2, 0.3}, {2, 0.1}, {-2, 0.2}, {-2, 0.4}, {2, 0.2}, {-2, 0.1}};
        ConfidenceFit.Data d = new ConfidenceFit.Data("rows", x, new int[] {1, 1, 0, 0, 1, 0});
        assertThat(ConfidenceFit.fit(List.of(d))[1]).isGreaterThan(1);
        StepDumpOptions.zeroed(d, java.util.Set.of(0));
        assertThat(Arrays.stream(d.x()).mapToDouble(r -> r[0])).containsOnly(0.0);
        assertThat(ConfidenceFit.fit(List.of(d))[1]).isZero();

        ConfidenceFit.Data aligned = new ConfidenceFit.Data("aligned", new double[][] {{1, 1}, null}, new int[] {1, 0});
        StepDumpOptions.zeroed(aligned, java.util.Set.of(1, 7)); // a column past the row's end is ignored
        assertThat(aligned.x()[0]).containsExactly(1, 0);
        assertThat(aligned.x()[1]).isNull();
    }
}
