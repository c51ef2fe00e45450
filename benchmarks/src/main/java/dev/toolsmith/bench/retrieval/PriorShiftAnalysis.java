package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Tests whether the held-out confidence misses are a prior (label) shift: a model fitted where top-1 is right
 * 19 % of the time learns a low intercept and is under-confident where it is right 60 %, and vice versa.
 * A diagnostic over {@code --dump} files (issue 21), no product code. For each held-out direction it prints:
 * <ul>
 *   <li><b>today</b>: precision / coverage at the threshold of the model fitted on the other set only;</li>
 *   <li><b>oracle</b>: with that model's scores as they rank the target's queries, the largest coverage whose
 *       precision is still ≥ 95 %, the cut chosen on the target's labels (if this is far above today, only the
 *       threshold's meaning shifts; if it is small too, the evidence is weak);</li>
 *   <li><b>EM prior</b>: the target's prior re-estimated without its labels by the EM of Saerens, Latinne &amp;
 *       Decaestecker (2002) on the first half of its queries, every logit moved by
 *       logit(π_target) − logit(π_source), measured on the second half (today's numbers on that half next to it).</li>
 * </ul>
 * A catalog-level feature (e.g. near-duplicate density) cannot be tested here: fitted on one catalog it is a
 * constant, so its coefficient is not identifiable from a single training set.
 *
 * <pre>
 * java -cp ... dev.toolsmith.bench.retrieval.PriorShiftAnalysis --train metatool-hybrid.tsv --eval gorilla-hybrid.tsv
 * java -cp ... dev.toolsmith.bench.retrieval.PriorShiftAnalysis --train seal-hybrid.tsv:seal-bm25.tsv \
 *   --eval steps-hybrid.tsv:steps-bm25.tsv
 * </pre>
 *
 * {@code --max-shift C} also measures the EM shift limited to ±C logits (a bounded adjustment).
 * An item {@code hybrid.tsv:bm25.tsv} is a plan-step set measured through the cascade (BM25's answer when its own
 * model clears the threshold, else the hybrid's; the BM25 model without zLexical, as shipped); a single file is
 * free text, hybrid model alone.
 */
@Command(name = "PriorShiftAnalysis", mixinStandardHelpOptions = true,
        description = "Tests whether held-out confidence misses are a prior (label) shift, from --dump files.")
public final class PriorShiftAnalysis implements Callable<Integer> {

    static final double THRESHOLD = 0.95;
    static final double TARGET_PRECISION = 0.95;
    /** zLexical, the BM25 step model leaves it out (ConfidenceModel.STEP_BM25). */
    private static final int Z_LEXICAL = 1;

    /** Precision and coverage of the queries a score clears; precision is NaN when none does. */
    record PrecisionCoverage(double precision, double coverage) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f / %.1f", 100 * precision, 100 * coverage);
        }
    }

    @Spec
    CommandSpec spec;
    @Option(names = "--train", required = true, paramLabel = "A.tsv[,B.tsv]",
            description = "dumps the model is fitted on (hybrid.tsv:bm25.tsv items for plan steps)")
    String train;
    @Option(names = "--eval", required = true, paramLabel = "C.tsv",
            description = "the held-out dump (a hybrid.tsv:bm25.tsv item for plan steps)")
    String eval;
    @Option(names = "--max-shift", defaultValue = "Infinity", paramLabel = "C",
            description = "also measure the EM shift limited to ±C logits")
    double maxShift;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PriorShiftAnalysis()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        if (train.contains(":") != eval.contains(":")) {
            throw new ParameterException(spec.commandLine(),
                    "--train and --eval must both be free-text dumps or both hybrid.tsv:bm25.tsv items");
        }
        Model hybrid = Model.fit(files(train, 0), false);
        Model bm25 = train.contains(":") ? Model.fit(files(train, 1), true) : null;
        ConfidenceFit.Data hybridEval = readAligned(Path.of(eval.split(":")[0]));
        ConfidenceFit.Data bm25Eval = bm25 == null ? null : readAligned(Path.of(eval.split(":")[1]));
        if (bm25Eval != null && bm25Eval.y().length != hybridEval.y().length) {
            throw new IllegalArgumentException("the two dumps of " + eval + " hold different queries");
        }
        report(eval, hybrid, bm25, hybridEval, bm25Eval, maxShift);
        return 0;
    }

    /** A fitted logistic model and the prior it was fitted under (its training files weighted equally, as in the fit). */
    record Model(double[] w, double prior, boolean withoutZLexical) {
        static Model fit(List<ConfidenceFit.Data> sets, boolean withoutZLexical) {
            if (withoutZLexical) {
                sets.forEach(d -> Arrays.stream(d.x()).forEach(x -> x[Z_LEXICAL] = 0));
            }
            double prior = 0;
            for (ConfidenceFit.Data d : sets) {
                prior += Arrays.stream(d.y()).average().orElse(0) / sets.size();
            }
            return new Model(ConfidenceFit.fit(sets), prior, withoutZLexical);
        }

        double[] logits(ConfidenceFit.Data d) {
            double[] out = new double[d.y().length];
            for (int r = 0; r < out.length; r++) {
                if (d.x()[r] == null) {
                    out[r] = Double.NEGATIVE_INFINITY; // a query without hits is never substituted
                    continue;
                }
                double z = w[0];
                for (int i = 0; i < d.x()[r].length && i + 1 < w.length; i++) {
                    z += w[i + 1] * (withoutZLexical && i == Z_LEXICAL ? 0 : d.x()[r][i]);
                }
                out[r] = z;
            }
            return out;
        }
    }

    private static void report(String name, Model hybrid, Model bm25, ConfidenceFit.Data hybridEval,
            ConfidenceFit.Data bm25Eval, double maxShift) {
        int n = hybridEval.y().length;
        int half = n / 2;
        double[] zh = hybrid.logits(hybridEval);
        double[] zb = bm25 == null ? null : bm25.logits(bm25Eval);
        int[] yh = hybridEval.y();
        int[] yb = bm25Eval == null ? null : bm25Eval.y();
        System.out.printf(Locale.ROOT, "%s: %d queries, top-1 right %.3f (source prior %.3f)%n", name, n,
                mean(yh), hybrid.prior());
        System.out.printf(Locale.ROOT, "  today, all: %s; oracle coverage at >= 95 %% precision (hybrid score): %.1f%n",
                cascade(zh, yh, zb, yb, 0, n, 0, 0), 100 * oracleCoverage(slice(zh, 0, n), slice(yh, 0, n), TARGET_PRECISION));
        double piHybrid = emPrior(sigmoids(slice(zh, 0, half)), hybrid.prior());
        double shiftHybrid = logit(piHybrid) - logit(hybrid.prior());
        double shiftBm25 = 0;
        String bm25Line = "";
        if (bm25 != null) {
            double piBm25 = emPrior(sigmoids(slice(zb, 0, half)), bm25.prior());
            shiftBm25 = logit(piBm25) - logit(bm25.prior());
            bm25Line = String.format(Locale.ROOT, "; bm25 model: source %.3f, EM %.3f (first half truly %.3f), shift %+.2f",
                    bm25.prior(), piBm25, mean(slice(yb, 0, half)), shiftBm25);
        }
        System.out.printf(Locale.ROOT, "  hybrid model: EM prior on the first half %.3f (truly %.3f), logit shift %+.2f%s%n",
                piHybrid, mean(slice(yh, 0, half)), shiftHybrid, bm25Line);
        System.out.printf(Locale.ROOT, "  second half: today %s; EM-shifted %s; oracle %.1f%n",
                cascade(zh, yh, zb, yb, half, n, 0, 0), cascade(zh, yh, zb, yb, half, n, shiftHybrid, shiftBm25),
                100 * oracleCoverage(slice(zh, half, n), slice(yh, half, n), TARGET_PRECISION));
        if (Double.isFinite(maxShift)) {
            System.out.printf(Locale.ROOT, "  second half, EM shift bounded to +-%.2f: %s%n", maxShift, cascade(zh, yh, zb, yb,
                    half, n, bounded(shiftHybrid, maxShift), bounded(shiftBm25, maxShift)));
        }
        System.out.printf(Locale.ROOT, "  second half with the true prior of the first half: %s%n", cascade(zh, yh, zb, yb,
                half, n, logit(mean(slice(yh, 0, half))) - logit(hybrid.prior()),
                yb == null ? 0 : logit(mean(slice(yb, 0, half))) - logit(bm25.prior())));
    }

    /**
     * Precision / coverage at the threshold over rows [from, to): the BM25 answer where its (shifted) logit clears
     * the threshold, else the hybrid's; hybrid alone when there is no BM25 model.
     */
    static PrecisionCoverage cascade(double[] zHybrid, int[] yHybrid, double[] zBm25, int[] yBm25, int from, int to,
            double shiftHybrid, double shiftBm25) {
        double cut = logit(THRESHOLD);
        int cleared = 0;
        int right = 0;
        for (int r = from; r < to; r++) {
            if (zBm25 != null && zBm25[r] + shiftBm25 >= cut) {
                cleared++;
                right += yBm25[r];
            } else if (zHybrid[r] + shiftHybrid >= cut) {
                cleared++;
                right += yHybrid[r];
            }
        }
        return new PrecisionCoverage(cleared == 0 ? Double.NaN : (double) right / cleared, (double) cleared / (to - from));
    }

    /**
     * The largest share of the queries that some cut on the score clears with precision ≥ {@code precision}; the
     * cut falls between distinct scores only (tied queries are cleared together), 0 when no cut reaches it.
     */
    static double oracleCoverage(double[] scores, int[] right, double precision) {
        Integer[] order = new Integer[scores.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        int best = 0;
        int ok = 0;
        for (int k = 0; k < order.length; k++) {
            ok += right[order[k]];
            boolean endOfTie = k + 1 == order.length || scores[order[k + 1]] < scores[order[k]];
            if (endOfTie && ok >= precision * (k + 1) - 1e-9) {
                best = k + 1;
            }
        }
        return scores.length == 0 ? 0 : (double) best / scores.length;
    }

    /**
     * Saerens, Latinne &amp; Decaestecker (2002): the prior of the positive class on a set whose posteriors a model
     * fitted under {@code sourcePrior} gave, by EM (reweight every posterior to the current prior, take their mean as
     * the next prior) until it moves less than 1e-9. Uses no label of that set.
     */
    static double emPrior(double[] sourcePosteriors, double sourcePrior) {
        double prior = sourcePrior;
        for (int iter = 0; iter < 10_000; iter++) {
            double sum = 0;
            for (double p : sourcePosteriors) {
                sum += adjust(p, sourcePrior, prior);
            }
            double next = sum / sourcePosteriors.length;
            if (Math.abs(next - prior) < 1e-9) {
                return next;
            }
            prior = next;
        }
        return prior;
    }

    /** A posterior under {@code from} re-expressed under prior {@code to} (Bayes' rule with the likelihoods kept). */
    static double adjust(double posterior, double from, double to) {
        double pos = posterior * to / from;
        double neg = (1 - posterior) * (1 - to) / (1 - from);
        return pos + neg == 0 ? posterior : pos / (pos + neg);
    }

    /** A logit shift limited to ±{@code max}: how a product would bound what the live queries may move. */
    static double bounded(double shift, double max) {
        return Math.max(-max, Math.min(max, shift));
    }

    static double logit(double p) {
        return Math.log(p / (1 - p));
    }

    private static double[] sigmoids(double[] z) {
        return Arrays.stream(z).map(v -> 1 / (1 + Math.exp(-v))).toArray();
    }

    private static double mean(int[] y) {
        return Arrays.stream(y).average().orElse(Double.NaN);
    }

    private static double[] slice(double[] a, int from, int to) {
        return Arrays.copyOfRange(a, from, to);
    }

    private static int[] slice(int[] a, int from, int to) {
        return Arrays.copyOfRange(a, from, to);
    }

    /**
     * A dump with every row kept, a query without hits as a null feature row that is wrong, so the hybrid and BM25
     * dumps of one set stay aligned and coverage counts every query (fitting reads them with ConfidenceFit.read).
     */
    static ConfidenceFit.Data readAligned(Path file) throws IOException {
        return ConfidenceFit.readAligned(file);
    }

    /** The files of a --train list; {@code part} picks the hybrid (0) or BM25 (1) dump of hybrid:bm25 items. */
    private static List<ConfidenceFit.Data> files(String list, int part) throws IOException {
        List<ConfidenceFit.Data> out = new ArrayList<>();
        for (String item : list.split(",")) {
            out.add(ConfidenceFit.read(Path.of(item.split(":")[part])));
        }
        return out;
    }

    PriorShiftAnalysis() {
    }
}
