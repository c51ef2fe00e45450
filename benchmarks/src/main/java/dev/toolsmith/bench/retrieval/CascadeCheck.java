package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.TypeConversionException;

/**
 * Fits the two step models the cascade uses (the hybrid one and the BM25 one that decides whether the
 * query is embedded at all) on some step sets and measures the cascade on others, offline, from the
 * {@code --dump} files of {@code --cascade false} runs: a query whose BM25 confidence clears the threshold
 * is answered by BM25's top hit, every other one by the hybrid's. This is how "held out" is measured for
 * plan steps: the models never see the set they are measured on.
 *
 * <pre>
 * java -cp ... dev.toolsmith.bench.retrieval.CascadeCheck --train seal-hybrid.tsv:seal-bm25.tsv \
 *   --eval steps-hybrid.tsv:steps-bm25.tsv [--zero-hybrid zLexical] [--zero-bm25 zLexical] [--threshold 0.95]
 * </pre>
 *
 * Each {@code --train}/{@code --eval} item is a hybrid dump and the BM25 dump of the same queries, joined by
 * ':', several items separated by ','. {@code --zero-*} names features (ConfidenceModel.FEATURES order)
 * set to 0 before fitting, so their coefficient is 0.
 */
@Command(name = "CascadeCheck", mixinStandardHelpOptions = true,
        description = "Fits both step models on some dump pairs and measures the cascade on others.")
public final class CascadeCheck implements Callable<Integer> {

    /** ConfidenceModel.FEATURES (package-private in the search module), in dump column order. */
    static final List<String> FEATURES = List.of("zDense", "zLexical", "margin", "agree", "cos", "title",
            "queryTerms", "twin", "cosMargin", "nameCover", "inputFit", "risky", "requiredUnfed", "size", "sizeMargin",
            "sizeZDense");

    @Mixin
    StepDumpOptions dumps;
    public static void main(String[] args) {
        System.exit(new CommandLine(new CascadeCheck()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        Set<Integer> zeroHybrid = dumps.zeroHybridColumns();
        Set<Integer> zeroBm25 = dumps.zeroBm25Columns();
        List<ConfidenceFit.Data> hybridTrain = new ArrayList<>();
        List<ConfidenceFit.Data> bm25Train = new ArrayList<>();
        for (StepDumpOptions.DumpPair p : dumps.train) {
            hybridTrain.add(StepDumpOptions.zeroed(ConfidenceFit.read(p.hybrid()), zeroHybrid));
            bm25Train.add(StepDumpOptions.zeroed(ConfidenceFit.read(p.bm25()), zeroBm25));
        }
        double[] wHybrid = ConfidenceFit.fit(hybridTrain);
        double[] wBm25 = ConfidenceFit.fit(bm25Train);
        System.out.println("hybrid " + format(wHybrid));
        System.out.println("bm25   " + format(wBm25));
        for (StepDumpOptions.DumpPair p : dumps.eval) {
            measure(p, wHybrid, wBm25, dumps.threshold);
        }
        return 0;
    }

    /** Precision / coverage at the threshold of the hybrid model alone and of the cascade. */
    static void measure(StepDumpOptions.DumpPair pair, double[] wHybrid, double[] wBm25, double threshold)
            throws IOException {
        List<String[]> hybrid = rawRows(pair.hybrid());
        List<String[]> bm25 = rawRows(pair.bm25());
        if (hybrid.size() != bm25.size()) {
            throw new IllegalArgumentException(pair.hybrid() + " and " + pair.bm25() + " hold different queries");
        }
        int n = hybrid.size();
        int hybridCleared = 0;
        int hybridRight = 0;
        int lexical = 0;
        int lexicalRight = 0;
        int cleared = 0;
        int right = 0;
        for (int r = 0; r < n; r++) {
            double ph = probability(wHybrid, hybrid.get(r));
            boolean hRight = hybrid.get(r)[0].equals("1");
            if (ph >= threshold) {
                hybridCleared++;
                hybridRight += hRight ? 1 : 0;
            }
            double pb = probability(wBm25, bm25.get(r));
            if (pb >= threshold) {
                boolean bRight = bm25.get(r)[0].equals("1");
                lexical++;
                lexicalRight += bRight ? 1 : 0;
                cleared++;
                right += bRight ? 1 : 0;
            } else if (ph >= threshold) {
                cleared++;
                right += hRight ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "%s (%d queries): hybrid alone %s; cascade %s, decided by BM25 %.1f %% (%s right)%n",
                pair.hybrid().getFileName(), n, pc(hybridRight, hybridCleared, n), pc(right, cleared, n),
                100.0 * lexical / n, lexical == 0 ? "-" : String.format(Locale.ROOT, "%.1f %%", 100.0 * lexicalRight / lexical));
    }

    /** Every dump row split at tabs, rows without hits included, so the two dumps stay aligned. */
    private static List<String[]> rawRows(Path file) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(file, java.nio.charset.StandardCharsets.UTF_8)) {
            out.add(line.split("\t"));
        }
        return out;
    }

    private static String pc(int right, int cleared, int n) {
        return String.format(Locale.ROOT, "precision %.1f / coverage %.1f", cleared == 0 ? Double.NaN
                : 100.0 * right / cleared, 100.0 * cleared / n);
    }

    /** A model's probability for one dump row (features without a coefficient are ignored, as in ConfidenceModel). */
    private static double probability(double[] w, String[] row) {
        if (row.length < 2) {
            return 0; // a query without hits
        }
        double z = w[0];
        for (int i = 1; i < row.length && i < w.length; i++) {
            z += w[i] * Double.parseDouble(row[i]);
        }
        return 1 / (1 + Math.exp(-z));
    }

    /** A feature name (ConfidenceModel.FEATURES) as its dump column; an unknown name is a usage error. */
    static final class FeatureColumn implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String name) {
            int i = FEATURES.indexOf(name.strip());
            if (i < 0) {
                throw new TypeConversionException("unknown feature " + name + ", one of " + FEATURES);
            }
            return i;
        }
    }

    private static String format(double[] w) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < w.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", w[i]));
        }
        return sb.append('}').toString();
    }

    CascadeCheck() {
    }
}
