package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The arithmetic of the prior-shift diagnostic: oracle cut, EM prior, logit shift, cascade counting. */
class PriorShiftAnalysisTest {

    @Test
    void oracleCoverageIsTheLargestCutThatKeepsThePrecision() {
        // ranked by score: right, right, wrong, right, wrong; cuts give 1/1, 2/2, 2/3, 3/4, 3/5
        double[] scores = {0.9, 0.8, 0.7, 0.6, 0.5};
        int[] right = {1, 1, 0, 1, 0};
        assertThat(PriorShiftAnalysis.oracleCoverage(scores, right, 0.95)).isEqualTo(2 / 5.0);
        assertThat(PriorShiftAnalysis.oracleCoverage(scores, right, 0.75)).isEqualTo(4 / 5.0);
        // order of the input does not matter, only the scores
        assertThat(PriorShiftAnalysis.oracleCoverage(new double[] {0.5, 0.6, 0.7, 0.8, 0.9}, new int[] {0, 1, 0, 1, 1}, 0.95))
                .isEqualTo(2 / 5.0);
    }

    @Test
    void oracleCoverageClearsTiedScoresTogether() {
        // the two top queries tie, one right one wrong: no cut reaches 95 %
        assertThat(PriorShiftAnalysis.oracleCoverage(new double[] {0.9, 0.9, 0.1}, new int[] {1, 0, 1}, 0.95)).isZero();
        assertThat(PriorShiftAnalysis.oracleCoverage(new double[0], new int[0], 0.95)).isZero();
    }

    @Test
    void adjustingAPosteriorMovesItsLogitByTheDifferenceOfThePriorLogits() {
        assertThat(PriorShiftAnalysis.adjust(0.5, 0.5, 0.8)).isCloseTo(0.8, within(1e-12));
        double p = 0.3;
        double moved = PriorShiftAnalysis.adjust(p, 0.19, 0.6);
        assertThat(PriorShiftAnalysis.logit(moved) - PriorShiftAnalysis.logit(p))
                .isCloseTo(PriorShiftAnalysis.logit(0.6) - PriorShiftAnalysis.logit(0.19), within(1e-9));
        assertThat(PriorShiftAnalysis.adjust(p, 0.4, 0.4)).isCloseTo(p, within(1e-12));
    }

    @Test
    void aBoundedShiftKeepsItsSignAndStopsAtTheBound() {
        assertThat(PriorShiftAnalysis.bounded(19.05, 1)).isEqualTo(1);
        assertThat(PriorShiftAnalysis.bounded(-4.78, 1)).isEqualTo(-1);
        assertThat(PriorShiftAnalysis.bounded(0.3, 1)).isEqualTo(0.3);
    }

    @Test
    void emRecoversTheTargetPriorOfAMixtureTheSourceModelCalibratedAtAnother() {
        // Source prior 0.5; two kinds of query with likelihoods P(A|right) 0.8, P(A|wrong) 0.2, so the calibrated
        // posteriors are 0.8 (A) and 0.2 (B). A target where 80 % are right holds 0.8·0.8 + 0.2·0.2 = 68 % A.
        double[] posteriors = new double[100];
        Arrays.fill(posteriors, 0, 68, 0.8);
        Arrays.fill(posteriors, 68, 100, 0.2);
        assertThat(PriorShiftAnalysis.emPrior(posteriors, 0.5)).isCloseTo(0.8, within(1e-4));
        // a target that looks like the source keeps the source prior (68 % → 50 % right needs 50 % A)
        double[] same = new double[100];
        Arrays.fill(same, 0, 50, 0.8);
        Arrays.fill(same, 50, 100, 0.2);
        assertThat(PriorShiftAnalysis.emPrior(same, 0.5)).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void theCascadeTakesBm25sAnswerWhenItClearsElseTheHybridsAndCountsEveryQuery() {
        double clear = PriorShiftAnalysis.logit(0.96);
        double below = PriorShiftAnalysis.logit(0.90);
        double[] zHybrid = {clear, below, clear, below};
        int[] yHybrid = {1, 1, 0, 1};
        double[] zBm25 = {below, clear, Double.NEGATIVE_INFINITY, below};
        int[] yBm25 = {0, 0, 0, 0};
        // query 0: hybrid right; 1: BM25 wrong; 2: hybrid wrong; 3: nothing clears
        PriorShiftAnalysis.PrecisionCoverage all = PriorShiftAnalysis.cascade(zHybrid, yHybrid, zBm25, yBm25, 0, 4, 0, 0);
        assertThat(all.precision()).isCloseTo(1 / 3.0, within(1e-12));
        assertThat(all.coverage()).isEqualTo(0.75);
        // hybrid alone, shifted up far enough that query 3 clears too
        PriorShiftAnalysis.PrecisionCoverage shifted = PriorShiftAnalysis.cascade(zHybrid, yHybrid, null, null, 0, 4, 1.0, 0);
        assertThat(shifted.precision()).isEqualTo(0.75);
        assertThat(shifted.coverage()).isEqualTo(1.0);
        // nothing clears: precision is undefined, not 0
        assertThat(PriorShiftAnalysis.cascade(zHybrid, yHybrid, null, null, 0, 4, -10, 0).precision()).isNaN();
    }

    @Test
    void aModelsPriorWeighsItsTrainingFilesEquallyAndRowsWithoutHitsStayAligned(@TempDir Path dir) throws Exception {
        Path a = Files.write(dir.resolve("a.tsv"), List.of("1\t1.0\t0.5", "0\t-1.0\t0.2"));
        Path b = Files.write(dir.resolve("b.tsv"), List.of("1\t2.0\t0.1", "1\t1.5\t0.3", "1\t1.0\t0.2", "0\t-2.0\t0.4"));
        PriorShiftAnalysis.Model m = PriorShiftAnalysis.Model.fit(
                List.of(ConfidenceFit.read(a), ConfidenceFit.read(b)), true);
        assertThat(m.prior()).isCloseTo((0.5 + 0.75) / 2, within(1e-12));
        assertThat(m.w()[2]).as("zLexical left out").isZero();
        Path c = Files.write(dir.resolve("c.tsv"), List.of("1\t1.0\t9.0", "0", "0\t-1.0\t9.0"));
        ConfidenceFit.Data rows = PriorShiftAnalysis.readAligned(c);
        assertThat(rows.y()).containsExactly(1, 0, 0);
        double[] z = m.logits(rows);
        assertThat(z[1]).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(z[0]).as("the zLexical column (9.0) is not read").isEqualTo(m.w()[0] + m.w()[1]);
    }
}
