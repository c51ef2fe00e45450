package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code --train h.tsv:b.tsv[,..] --eval h.tsv:b.tsv[,..] [--threshold P]}: the options of the drivers that fit the
 * two step models on some pairs of {@code --cascade false} dumps and measure the cascade on others, with
 * {@code --zero-hybrid} / {@code --zero-bm25} naming features (ConfidenceModel.FEATURES) set to 0 before fitting
 * ({@link CascadeCheck}, {@link StepCalibration}).
 */
final class StepDumpOptions {

    @Option(names = "--train", required = true, split = ",", paramLabel = "HYBRID.tsv:BM25.tsv",
            converter = DumpPair.Converter.class, description = "dump pairs the models are fitted on")
    List<DumpPair> train;
    @Option(names = "--eval", required = true, split = ",", paramLabel = "HYBRID.tsv:BM25.tsv",
            converter = DumpPair.Converter.class, description = "dump pairs the cascade is measured on")
    List<DumpPair> eval;
    @Option(names = "--threshold", defaultValue = "0.95", description = "probability a substitution must clear")
    double threshold;
    @Option(names = "--zero-hybrid", split = ",", paramLabel = "FEATURE", converter = CascadeCheck.FeatureColumn.class,
            description = "features set to 0 before the hybrid model is fitted, e.g. zLexical")
    List<Integer> zeroHybrid;
    @Option(names = "--zero-bm25", split = ",", paramLabel = "FEATURE", converter = CascadeCheck.FeatureColumn.class,
            description = "features set to 0 before the BM25 model is fitted (zLexical, as shipped)")
    List<Integer> zeroBm25;

    /** The dump columns {@code --zero-hybrid} names (none when it is absent). */
    Set<Integer> zeroHybridColumns() {
        return zeroHybrid == null ? Set.of() : Set.copyOf(zeroHybrid);
    }

    /** The dump columns {@code --zero-bm25} names (none when it is absent). */
    Set<Integer> zeroBm25Columns() {
        return zeroBm25 == null ? Set.of() : Set.copyOf(zeroBm25);
    }

    /** {@code d} with the given feature columns set to 0 in every row with hits (in place). */
    static ConfidenceFit.Data zeroed(ConfidenceFit.Data d, Set<Integer> columns) {
        for (double[] x : d.x()) {
            if (x == null) {
                continue;
            }
            for (int c : columns) {
                if (c < x.length) {
                    x[c] = 0;
                }
            }
        }
        return d;
    }

    /** A hybrid dump and the BM25 dump of the same queries, written {@code hybrid.tsv:bm25.tsv}. */
    record DumpPair(Path hybrid, Path bm25) {

        /** Both dumps row for row ({@link ConfidenceFit#readAligned}), refused when they hold different queries. */
        Rows read() throws IOException {
            ConfidenceFit.Data h = ConfidenceFit.readAligned(hybrid);
            ConfidenceFit.Data b = ConfidenceFit.readAligned(bm25);
            if (h.y().length != b.y().length) {
                throw new IllegalArgumentException(hybrid + ":" + bm25 + ": the two dumps hold different queries ("
                        + h.y().length + " and " + b.y().length + " rows)");
            }
            return new Rows(h, b);
        }

        /** A pair's two dumps, read. */
        record Rows(ConfidenceFit.Data hybrid, ConfidenceFit.Data bm25) {
        }

        /** Parses one {@code hybrid.tsv:bm25.tsv} item; anything else is a usage error. */
        static final class Converter implements ITypeConverter<DumpPair> {
            @Override
            public DumpPair convert(String item) {
                String[] two = item.split(":");
                if (two.length != 2) {
                    throw new TypeConversionException("expected hybrid.tsv:bm25.tsv, got " + item);
                }
                return new DumpPair(Path.of(two[0]), Path.of(two[1]));
            }
        }
    }
}
