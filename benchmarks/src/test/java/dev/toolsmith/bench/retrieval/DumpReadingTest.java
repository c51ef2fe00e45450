package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline fitters read {@code --dump} files one way: row for row, and a file that is not one is named by line. */
class DumpReadingTest {

    @Test
    void rowsWithoutHitsStayInPlaceWhenAlignedAndAreLeftOutForFitting(@TempDir Path dir) throws IOException {
        Path dump = Files.write(dir.resolve("d-hybrid.tsv"), List.of("1\t0.5\t2", "0", "0\t-1.25\t3"));
        ConfidenceFit.Data aligned = ConfidenceFit.readAligned(dump);
        assertThat(aligned.y()).containsExactly(1, 0, 0);
        assertThat(aligned.x()[1]).isNull();
        assertThat(aligned.x()[2]).containsExactly(-1.25, 3);
        ConfidenceFit.Data fitted = ConfidenceFit.read(dump);
        assertThat(fitted.y()).containsExactly(1, 0);
        assertThat(PriorShiftAnalysis.readAligned(dump).x().length).isEqualTo(3);
    }

    @Test
    void idsWithTabsOrLineBreaksStayInOneCellOfTheHitsFile() {
        assertThat(RetrievalBenchmark.cell("a\tb\nc\rd")).isEqualTo("a b c d");
        assertThat(RetrievalBenchmark.cell("ably.io:get_metadata")).isEqualTo("ably.io:get_metadata");
    }

    @Test
    void aFileThatIsNotADumpIsRefusedWithItsLine(@TempDir Path dir) throws IOException {
        assertRefused(dir, List.of("1\t0.5", "yes\t0.2"), ":2: the label 'yes' is not 0 or 1");
        assertRefused(dir, List.of("recall@1\tmrr"), ":1: the label 'recall@1' is not 0 or 1");
        assertRefused(dir, List.of("1\t0.5\t1", "0\tNaN\t1"), ":2: 'NaN' is not a finite number");
        assertRefused(dir, List.of("1\t0.5\t1", "0\t0.1\tx"), ":2: 'x' is not a finite number");
        assertRefused(dir, List.of("1\t0.5\t1", "0", "0\t0.1"), ":3: 1 features where earlier rows have 2");
        assertRefused(dir, List.of("1\t0.5\u0000"), ":1: '0.5\u0000' is not a finite number");
        assertRefused(dir, List.of(), ": holds no rows; not a --dump file");
    }

    private static void assertRefused(Path dir, List<String> lines, String message) throws IOException {
        Path dump = Files.write(dir.resolve("bad.tsv"), lines);
        assertThatThrownBy(() -> ConfidenceFit.readAligned(dump)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.tsv" + message);
        assertThatThrownBy(() -> ConfidenceFit.read(dump)).hasMessageContaining(message);
    }
}
