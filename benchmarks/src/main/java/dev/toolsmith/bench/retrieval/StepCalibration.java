package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A monotone calibration of the two step models' probabilities (issue 21): the logistic models are under-confident
 * at the top of their range (99 % precise at 0.95 where a lower cut would still be 95 % precise), so this fits, on
 * the source step sets only, an isotonic map from a model's probability to the share of top hits that are right,
 * and measures precision / coverage at the threshold with and without it, through the cascade, on other step sets.
 *
 * <p>Why isotonic (pool-adjacent-violators) on cross-fitted scores: the problem is the shape of the curve's top, which
 * a Platt re-scaling (one slope, one intercept on the logit) can only bend as a whole; isotonic regression assumes
 * nothing but monotonicity. It is fitted on out-of-fold scores (each source row scored by a logistic fitted without
 * its fold, {@link #FOLDS} folds) so the map does not learn how well the logistic fits its own training rows; the
 * map is then applied to the model fitted on all source rows, as shipped. Blocks are merged until each holds at least
 * {@link #MIN_BLOCK_SHARE} of the (weighted) rows, so the table is small and its top knot is not a handful of rows
 * that happened to be right. Knots are (block's mean probability, block's share right) plus (0, 0) and (1, 1);
 * between knots the map is linear, so it is strictly increasing wherever the blocks' shares are.
 *
 * <pre>
 * java -cp ... dev.toolsmith.bench.retrieval.StepCalibration --train seal-hybrid.tsv:seal-bm25.tsv \
 *   --eval steps-hybrid.tsv:steps-bm25.tsv [--threshold 0.95] [--min-block 0.02]
 * </pre>
 *
 * {@code --hybrid-coefficients} / {@code --bm25-coefficients} "{-5.5841, ...}" measure the given models (say, the
 * shipped ones, when the dumps are newer than their fit) instead of the ones fitted on {@code --train}; the maps are
 * still fitted on {@code --train}'s cross-fitted scores.
 *
 * Items are a hybrid dump and the BM25 dump of the same queries joined by ':' (from {@code --cascade false} runs),
 * several separated by ','. The BM25 model is fitted without zLexical, the hybrid one as dumped (capped), as shipped.
 *
 * <p>Steps whose tool is not in the catalog: {@code --train-absent} names, for each {@code --train} pair in order, the
 * dumps of the same set run with {@code --without-gold true} (every top hit wrong). {@code --absent-share S} mixes a
 * seeded sample of their rows into each training set so that S of its rows are such steps; the cautious step models
 * ({@code ConfidenceModel.CAUTIOUS_STEP_*}) are fitted this way. {@code --eval-absent} does the same for the
 * {@code --eval} pairs and reports how many of those steps still clear the threshold, and the precision a deployment
 * sees when S of its novel verbs have no tool.
 */
@Command(name = "StepCalibration", mixinStandardHelpOptions = true,
        description = "Fits the step models' isotonic calibration tables and measures the cascade with and without them.")
public final class StepCalibration implements Callable<Integer> {

    static final int FOLDS = 5;
    static final double MIN_BLOCK_SHARE = 0.02;
    private static final int Z_LEXICAL = 1;

    /** A piecewise-linear monotone map; x and y ascending, x from 0 to 1. */
    record Knots(double[] x, double[] y) {
        double apply(double p) {
            if (p <= x[0]) {
                return y[0];
            }
            for (int i = 1; i < x.length; i++) {
                if (p <= x[i]) {
                    double t = (p - x[i - 1]) / (x[i] - x[i - 1]);
                    return y[i - 1] + t * (y[i] - y[i - 1]);
                }
            }
            return y[y.length - 1];
        }

        /** The table as Java source, for ConfidenceCalibration in the search module. */
        String java() {
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < x.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "{%.6f, %.6f}", x[i], y[i]));
            }
            return sb.append('}').toString();
        }
    }

    @Spec
    CommandSpec spec;
    @Mixin
    StepDumpOptions dumps;
    @Option(names = "--min-block", defaultValue = "" + MIN_BLOCK_SHARE, paramLabel = "SHARE",
            description = "smallest share of the (weighted) training rows one block of the table holds")
    double minBlock;
    @Option(names = "--hybrid-coefficients", paramLabel = "{w0, ..}",
            description = "measure this hybrid model (as in ConfidenceModel) instead of the one fitted on --train")
    String hybridCoefficients;
    @Option(names = "--bm25-coefficients", paramLabel = "{w0, ..}",
            description = "measure this BM25 model (as in ConfidenceModel) instead of the one fitted on --train")
    String bm25Coefficients;
    @Option(names = "--train-absent", split = ",", paramLabel = "HYBRID.tsv:BM25.tsv",
            converter = StepDumpOptions.DumpPair.Converter.class,
            description = "--without-gold dumps of the --train sets, in their order (the negatives --absent-share mixes in)")
    List<StepDumpOptions.DumpPair> trainAbsent = List.of();
    @Option(names = "--eval-absent", split = ",", paramLabel = "HYBRID.tsv:BM25.tsv",
            converter = StepDumpOptions.DumpPair.Converter.class,
            description = "--without-gold dumps of the --eval sets, in their order: how many steps without their tool clear")
    List<StepDumpOptions.DumpPair> evalAbsent = List.of();
    @Option(names = "--absent-share", defaultValue = "0", paramLabel = "SHARE",
            description = "share of each training set made of steps whose tool is absent (0 = fit on --train alone)")
    double absentShare;

    /** The seed of the sample of absent-tool rows, so a refit is reproducible. */
    static final long ABSENT_SEED = 42;

    public static void main(String[] args) {
        System.exit(new CommandLine(new StepCalibration()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        double threshold = dumps.threshold;
        double[] hybridGiven = parse("--hybrid-coefficients", hybridCoefficients);
        double[] bm25Given = parse("--bm25-coefficients", bm25Coefficients);
        checkAbsentOptions();
        List<ConfidenceFit.Data> hybridTrain = new ArrayList<>();
        List<ConfidenceFit.Data> bm25Train = new ArrayList<>();
        for (int i = 0; i < dumps.train.size(); i++) {
            StepDumpOptions.DumpPair absent = absentShare > 0 ? trainAbsent.get(i) : null;
            ConfidenceFit.Data[] pair = trainingPair(dumps.train.get(i), absent, absentShare);
            hybridTrain.add(StepDumpOptions.zeroed(pair[0], dumps.zeroHybridColumns()));
            bm25Train.add(StepDumpOptions.zeroed(pair[1], dumps.zeroBm25Columns()));
        }
        double[] wHybrid = hybridGiven != null ? hybridGiven : ConfidenceFit.fit(hybridTrain);
        double[] wBm25 = bm25Given != null ? bm25Given : ConfidenceFit.fit(bm25Train);
        Knots hybridKnots = crossFitted(hybridTrain, minBlock);
        Knots bm25Knots = crossFitted(bm25Train, minBlock);
        System.out.println("STEP_HYBRID coefficients " + coefficients(wHybrid));
        System.out.println("STEP_BM25   coefficients " + coefficients(wBm25));
        System.out.println("STEP_HYBRID knots " + hybridKnots.java());
        System.out.println("STEP_BM25   knots " + bm25Knots.java());
        for (int e = 0; e < dumps.eval.size(); e++) {
            StepDumpOptions.DumpPair pair = dumps.eval.get(e);
            StepDumpOptions.DumpPair.Rows rows = pair.read();
            ConfidenceFit.Data h = rows.hybrid();
            ConfidenceFit.Data b = rows.bm25();
            double[] ph = probabilities(wHybrid, h, false);
            double[] pb = probabilities(wBm25, b, true);
            PriorShiftAnalysis.PrecisionCoverage calibrated = cascade(ph, h.y(), pb, b.y(), threshold, hybridKnots, bm25Knots);
            System.out.printf(Locale.ROOT, "%s (%d queries): today %s; calibrated %s; hybrid alone today %s, calibrated %s;"
                    + " decided by BM25 (precision / share) today %s, calibrated %s%n",
                    pair.hybrid(), h.y().length,
                    cascade(ph, h.y(), pb, b.y(), threshold, null, null),
                    calibrated,
                    cascade(ph, h.y(), null, null, threshold, null, null),
                    cascade(ph, h.y(), null, null, threshold, hybridKnots, null),
                    cascade(pb, b.y(), null, null, threshold, null, null),
                    cascade(pb, b.y(), null, null, threshold, bm25Knots, null));
            if (!evalAbsent.isEmpty()) {
                StepDumpOptions.DumpPair absentPair = evalAbsent.get(e);
                StepDumpOptions.DumpPair.Rows absent = absentRows(absentPair, h);
                double absentCleared = cascade(probabilities(wHybrid, absent.hybrid(), false), absent.hybrid().y(),
                        probabilities(wBm25, absent.bm25(), true), absent.bm25().y(), threshold, hybridKnots, bm25Knots)
                        .coverage();
                double share = absentShare > 0 ? absentShare : 0.1;
                System.out.printf(Locale.ROOT, "  tool absent (%s): %.1f %% still clear the threshold; precision when %.0f %%"
                        + " of steps have no tool: %.1f %%%n", absentPair.hybrid(), 100 * absentCleared, 100 * share,
                        100 * mixedPrecision(calibrated, absentCleared, share));
            }
        }
        return 0;
    }

    private void checkAbsentOptions() {
        if (absentShare < 0 || absentShare >= 0.9) {
            throw new ParameterException(spec.commandLine(), "--absent-share must be at least 0 and below 0.9, got " + absentShare);
        }
        if (absentShare == 0 && !trainAbsent.isEmpty()) { // else the pairs would be read by nobody and the fit look cautious
            throw new ParameterException(spec.commandLine(), "--train-absent is mixed in only with --absent-share above 0"
                    + " (the cautious models were fitted with 0.1)");
        }
        if (absentShare > 0 && trainAbsent.size() != dumps.train.size()) {
            throw new ParameterException(spec.commandLine(), "--absent-share needs one --train-absent pair per --train pair ("
                    + dumps.train.size() + "), got " + trainAbsent.size());
        }
        if (!evalAbsent.isEmpty() && evalAbsent.size() != dumps.eval.size()) {
            throw new ParameterException(spec.commandLine(), "--eval-absent needs one pair per --eval pair ("
                    + dumps.eval.size() + "), got " + evalAbsent.size());
        }
    }

    /**
     * Precision at the threshold when a share {@code absentShare} of the steps have no tool: the steps with a tool
     * keep their precision and coverage, and every absent-tool step that clears is wrong.
     */
    static double mixedPrecision(PriorShiftAnalysis.PrecisionCoverage present, double absentCleared, double absentShare) {
        double presentCleared = present.coverage() * (1 - absentShare);
        double right = Double.isNaN(present.precision()) ? 0 : present.precision() * presentCleared;
        double cleared = presentCleared + absentCleared * absentShare;
        return cleared == 0 ? Double.NaN : right / cleared;
    }

    /**
     * One training set's hybrid and BM25 rows (BM25's without zLexical), with a seeded sample of {@code absent}'s rows
     * (the same rows of both files, labelled wrong) making up {@code share} of it; rows without hits are left out.
     */
    static ConfidenceFit.Data[] trainingPair(StepDumpOptions.DumpPair present, StepDumpOptions.DumpPair absent,
            double share) throws IOException {
        StepDumpOptions.DumpPair.Rows rows = present.read();
        ConfidenceFit.Data h = rows.hybrid();
        ConfidenceFit.Data b = rows.bm25();
        List<double[]> hx = new ArrayList<>(Arrays.asList(h.x()));
        List<double[]> bx = new ArrayList<>(Arrays.asList(b.x()));
        List<Integer> hy = new ArrayList<>(Arrays.stream(h.y()).boxed().toList());
        List<Integer> by = new ArrayList<>(Arrays.stream(b.y()).boxed().toList());
        if (absent != null && share > 0) {
            StepDumpOptions.DumpPair.Rows hidden = absentRows(absent, h);
            List<Integer> order = new ArrayList<>(java.util.stream.IntStream.range(0, hidden.hybrid().y().length).boxed().toList());
            java.util.Collections.shuffle(order, new java.util.Random(ABSENT_SEED));
            int wanted = Math.min(order.size(), (int) Math.round(share / (1 - share) * h.y().length));
            for (int r : order.subList(0, wanted)) {
                hx.add(hidden.hybrid().x()[r]);
                bx.add(hidden.bm25().x()[r]);
                hy.add(0);
                by.add(0);
            }
        }
        return new ConfidenceFit.Data[] {withHits(h.name(), hx, hy, false), withHits(b.name(), bx, by, true)};
    }

    /**
     * A {@code --without-gold} pair, checked to be one: no row may be right (its right tool was hidden, so whatever
     * came first is wrong), and its rows must have the features of {@code present}'s (the same build's dump).
     */
    static StepDumpOptions.DumpPair.Rows absentRows(StepDumpOptions.DumpPair absent, ConfidenceFit.Data present)
            throws IOException {
        StepDumpOptions.DumpPair.Rows rows = absent.read();
        int presentWidth = width(present);
        for (ConfidenceFit.Data d : List.of(rows.hybrid(), rows.bm25())) {
            for (int r = 0; r < d.y().length; r++) {
                if (d.y()[r] != 0) {
                    throw new IllegalArgumentException(absent.hybrid() + ":" + absent.bm25() + ": row " + (r + 1)
                            + " is a right answer; a tool-absent pair comes from a --without-gold true run");
                }
            }
            int w = width(d);
            if (w >= 0 && presentWidth >= 0 && w != presentWidth) {
                throw new IllegalArgumentException(absent.hybrid() + ":" + absent.bm25() + ": " + w
                        + " features where the steps' own dumps have " + presentWidth + "; dump both with the same build");
            }
        }
        return rows;
    }

    /** The feature count of a dump's rows with hits, -1 when it has none. */
    private static int width(ConfidenceFit.Data d) {
        for (double[] x : d.x()) {
            if (x != null) {
                return x.length;
            }
        }
        return -1;
    }

    private static ConfidenceFit.Data withHits(String name, List<double[]> xs, List<Integer> ys, boolean withoutZLexical) {
        List<double[]> keptX = new ArrayList<>();
        List<Integer> keptY = new ArrayList<>();
        for (int r = 0; r < xs.size(); r++) {
            if (xs.get(r) != null) { // a query without hits has no features
                double[] x = xs.get(r).clone();
                if (withoutZLexical) {
                    x[Z_LEXICAL] = 0;
                }
                keptX.add(x);
                keptY.add(ys.get(r));
            }
        }
        return new ConfidenceFit.Data(name, keptX.toArray(double[][]::new), keptY.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The isotonic map fitted on out-of-fold probabilities of the given training sets (each set weighted equally). */
    static Knots crossFitted(List<ConfidenceFit.Data> sets, double minBlock) {
        List<Double> p = new ArrayList<>();
        List<Integer> y = new ArrayList<>();
        List<Double> weight = new ArrayList<>();
        for (int fold = 0; fold < FOLDS; fold++) {
            List<ConfidenceFit.Data> in = new ArrayList<>();
            for (ConfidenceFit.Data d : sets) {
                in.add(rows(d, fold, false));
            }
            double[] w = ConfidenceFit.fit(in);
            for (ConfidenceFit.Data d : sets) {
                ConfidenceFit.Data out = rows(d, fold, true);
                double[] probs = probabilities(w, out, false);
                for (int r = 0; r < probs.length; r++) {
                    p.add(probs[r]);
                    y.add(out.y()[r]);
                    weight.add(1.0 / d.y().length);
                }
            }
        }
        return isotonic(p.stream().mapToDouble(Double::doubleValue).toArray(), y.stream().mapToInt(Integer::intValue).toArray(),
                weight.stream().mapToDouble(Double::doubleValue).toArray(), minBlock);
    }

    /**
     * Pool-adjacent-violators over the rows sorted by probability (rows with equal probabilities pooled first), then adjacent blocks merged until each holds at
     * least {@code minShare} of the total weight (merging neighbours of an increasing sequence keeps it increasing).
     */
    static Knots isotonic(double[] p, int[] y, double[] weight, double minShare) {
        Integer[] order = new Integer[p.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(p[a], p[b]));
        double total = Arrays.stream(weight).sum();
        // a block: summed weight, weighted sum of probabilities, weighted sum of labels
        List<double[]> blocks = new ArrayList<>();
        double last = Double.NaN;
        for (int i : order) {
            blocks.add(new double[] {weight[i], weight[i] * p[i], weight[i] * y[i]});
            if (p[i] == last) {
                pool(blocks, blocks.size() - 2); // tied probabilities must map to one value
            }
            last = p[i];
            while (blocks.size() > 1 && share(blocks.get(blocks.size() - 2)) >= share(blocks.get(blocks.size() - 1))) {
                pool(blocks, blocks.size() - 2);
            }
        }
        // merge the smallest block into its neighbour with the closer share until every block is large enough
        while (blocks.size() > 1) {
            int small = -1;
            for (int i = 0; i < blocks.size(); i++) {
                if (blocks.get(i)[0] < minShare * total && (small < 0 || blocks.get(i)[0] < blocks.get(small)[0])) {
                    small = i;
                }
            }
            if (small < 0) {
                break;
            }
            boolean left = small == blocks.size() - 1 || small > 0
                    && share(blocks.get(small)) - share(blocks.get(small - 1)) < share(blocks.get(small + 1)) - share(blocks.get(small));
            pool(blocks, left ? small - 1 : small);
        }
        double[] x = new double[blocks.size() + 2];
        double[] v = new double[blocks.size() + 2];
        x[x.length - 1] = 1;
        v[v.length - 1] = 1;
        for (int i = 0; i < blocks.size(); i++) {
            x[i + 1] = blocks.get(i)[1] / blocks.get(i)[0];
            v[i + 1] = share(blocks.get(i));
        }
        return new Knots(x, v);
    }

    private static double share(double[] block) {
        return block[2] / block[0];
    }

    /** Pools block i and block i + 1. */
    private static void pool(List<double[]> blocks, int i) {
        double[] a = blocks.get(i);
        double[] b = blocks.remove(i + 1);
        for (int k = 0; k < 3; k++) {
            a[k] += b[k];
        }
    }

    /**
     * Precision / coverage at the threshold: the BM25 answer where its (calibrated) probability clears it, else the
     * hybrid's; hybrid alone when {@code pBm25} is null. A null map is today's (the logistic as it comes).
     */
    static PriorShiftAnalysis.PrecisionCoverage cascade(double[] pHybrid, int[] yHybrid, double[] pBm25, int[] yBm25,
            double threshold, Knots hybridMap, Knots bm25Map) {
        int cleared = 0;
        int right = 0;
        for (int r = 0; r < pHybrid.length; r++) {
            if (pBm25 != null && (bm25Map == null ? pBm25[r] : bm25Map.apply(pBm25[r])) >= threshold) {
                cleared++;
                right += yBm25[r];
            } else if ((hybridMap == null ? pHybrid[r] : hybridMap.apply(pHybrid[r])) >= threshold) {
                cleared++;
                right += yHybrid[r];
            }
        }
        return new PriorShiftAnalysis.PrecisionCoverage(cleared == 0 ? Double.NaN : (double) right / cleared,
                (double) cleared / pHybrid.length);
    }

    /** A {@code "{-5.5841, ...}"} option's coefficients, null when it is absent; not numbers is a usage error. */
    private double[] parse(String option, String list) {
        if (list == null) {
            return null;
        }
        try {
            return Arrays.stream(list.replaceAll("[{}\\s]", "").split(",")).mapToDouble(Double::parseDouble).toArray();
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), option + ": not a list of numbers: " + list);
        }
    }

    /** Logistic coefficients as ConfidenceModel holds them (to check the table belongs to the shipped model). */
    static String coefficients(double[] w) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < w.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", w[i]));
        }
        return sb.append('}').toString();
    }

    /** A model's probability per row; a row without hits (null) is 0, never substituted. */
    static double[] probabilities(double[] w, ConfidenceFit.Data d, boolean withoutZLexical) {
        double[] out = new double[d.y().length];
        for (int r = 0; r < out.length; r++) {
            double[] x = d.x()[r];
            if (x == null) {
                continue;
            }
            double z = w[0];
            for (int i = 0; i < x.length && i + 1 < w.length; i++) {
                z += w[i + 1] * (withoutZLexical && i == Z_LEXICAL ? 0 : x[i]);
            }
            out[r] = 1 / (1 + Math.exp(-z));
        }
        return out;
    }

    /** The rows of fold {@code fold} (row index mod FOLDS), or every other row. */
    static ConfidenceFit.Data rows(ConfidenceFit.Data d, int fold, boolean inFold) {
        List<double[]> xs = new ArrayList<>();
        List<Integer> ys = new ArrayList<>();
        for (int r = 0; r < d.y().length; r++) {
            if ((r % FOLDS == fold) == inFold) {
                xs.add(d.x()[r]);
                ys.add(d.y()[r]);
            }
        }
        return new ConfidenceFit.Data(d.name(), xs.toArray(double[][]::new), ys.stream().mapToInt(Integer::intValue).toArray());
    }

    StepCalibration() {
    }
}
