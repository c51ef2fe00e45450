package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reranker's fit on made-up candidate dumps whose answer is known. */
class RerankFitTest {

    @TempDir
    Path dir;

    /**
     * 200 queries of five candidates: the right one is never first by fused score, but always the only one with
     * feature 0 set; feature 1 is noise.
     */
    private Path dump(long seed) throws Exception {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        lines.add("#queries\t201"); // one query has no candidates at all: it counts as a miss
        for (int q = 0; q < 200; q++) {
            int right = 1 + random.nextInt(4);
            for (int i = 0; i < 5; i++) {
                double fused = 5 - i;
                lines.add(q + "\t1\t" + (i == right ? 1 : 0) + "\t" + fused + "\t" + (i == right ? 1.0 : 0.0) + "\t"
                        + random.nextDouble());
            }
        }
        Path file = dir.resolve("cand-" + seed + ".tsv");
        Files.write(file, lines);
        return file;
    }

    @Test
    void theFeatureThatMarksTheRightToolGetsTheWeightAndMovesItFirst() throws Exception {
        RerankFit.DumpedSet train = RerankFit.read(dump(1));
        double[] w = RerankFit.fit(List.of(train), 2, new boolean[] {true, true}, 0.01);
        assertThat(w[0]).isGreaterThan(4);
        assertThat(Math.abs(w[1])).isLessThan(w[0] / 4);

        RerankFit.DumpedSet other = RerankFit.read(dump(2));
        double[] before = RerankFit.recall(other, new double[2]);
        double[] after = RerankFit.recall(other, w);
        assertThat(before[0]).isZero();
        assertThat(after[0]).isCloseTo(200.0 / 201, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(after[1]).isCloseTo(200.0 / 201, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void anInactiveColumnKeepsWeightZero() throws Exception {
        RerankFit.DumpedSet train = RerankFit.read(dump(3));
        double[] w = RerankFit.fit(List.of(train), 2, new boolean[] {false, true}, 0.01);
        assertThat(w[0]).isZero();
    }

    @Test
    void aFileThatIsNotACandidateDumpIsRefusedWithItsLine() throws Exception {
        Path noHeader = dir.resolve("no-header.tsv");
        Files.write(noHeader, List.of("0\t1\t1\t2.0\t0.5"));
        assertThatThrownBy(() -> RerankFit.read(noHeader)).hasMessageContaining("no-header.tsv:1")
                .hasMessageContaining("#queries");
        Path notANumber = dir.resolve("nan.tsv");
        Files.write(notANumber, List.of("#queries\t1", "0\t1\t1\t2.0\t0.5", "0\t1\t0\tNaN\t0.5"));
        assertThatThrownBy(() -> RerankFit.read(notANumber)).hasMessageContaining("nan.tsv:3")
                .hasMessageContaining("'NaN'");
        Path ragged = dir.resolve("ragged.tsv");
        Files.write(ragged, List.of("#queries\t1", "0\t1\t1\t2.0\t0.5", "0\t1\t0\t1.0\t0.5\t0.1"));
        assertThatThrownBy(() -> RerankFit.read(ragged)).hasMessageContaining("ragged.tsv:3")
                .hasMessageContaining("6 columns");
    }

    @Test
    void dumpsWithDifferentFeaturesAreNotFittedTogether() throws Exception {
        Path narrow = dir.resolve("narrow.tsv");
        Files.write(narrow, List.of("#queries\t1", "0\t1\t1\t2.0\t0.5"));
        assertThatThrownBy(() -> RerankFit.featureCount(List.of(RerankFit.read(dump(4)), RerankFit.read(narrow))))
                .hasMessageContaining("narrow.tsv has 1 features");
    }
}
