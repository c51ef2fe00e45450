package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fits the reranking weights of {@code CandidateReranker} on {@code --dump-candidates} files and measures them on
 * others: a conditional logit (the right tool against the other candidates of its query) over the reranking
 * features with the fused score as a fixed offset, L2-regularised, solved by Newton's method; each training file
 * weighted equally. Prints the weights and, per evaluation file, recall@1 / recall@5 of the fused order and of the
 * reranked one (the candidates beyond the dumped ones cannot move into the top five, so these are exact).
 *
 * <pre>
 * RerankFit --train /tmp/steps.cand,/tmp/seal.cand --eval /tmp/steps.cand [--l2 0.01] [--use 0,1,2]
 * </pre>
 */
@Command(name = "RerankFit", mixinStandardHelpOptions = true,
        description = "Fit and check the candidate reranker's weights on dumped candidates.")
public final class RerankFit implements Callable<Integer> {

    @Option(names = "--train", required = true, split = ",", description = "candidate dumps to fit on")
    List<Path> train;
    @Option(names = "--eval", required = true, split = ",", description = "candidate dumps to measure on")
    List<Path> eval;
    @Option(names = "--l2", defaultValue = "0.01", description = "L2 penalty per query")
    double l2;
    @Option(names = "--use", split = ",", description = "feature columns to fit (default: all); the rest get 0")
    List<Integer> use;
    @Option(names = "--weights", split = ",", description = "measure these weights instead of fitting")
    List<Double> given;

    /** One query's candidates: their fused scores, features and whether each is right. */
    record Query(int gold, double[] fused, double[][] features, boolean[] right) {
    }

    record DumpedSet(String name, int queries, List<Query> withCandidates) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RerankFit()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        List<DumpedSet> trainSets = new ArrayList<>();
        for (Path p : train) {
            trainSets.add(read(p));
        }
        int d = featureCount(trainSets);
        double[] w;
        if (given != null) {
            w = new double[d];
            for (int i = 0; i < Math.min(d, given.size()); i++) {
                w[i] = given.get(i);
            }
        } else {
            boolean[] active = new boolean[d];
            for (int j = 0; j < d; j++) {
                active[j] = use == null || use.contains(j);
            }
            w = fit(trainSets, d, active, l2);
        }
        StringBuilder sb = new StringBuilder("weights {");
        for (int j = 0; j < d; j++) {
            sb.append(j == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", w[j]));
        }
        System.out.println(sb.append('}'));
        for (Path p : eval) {
            DumpedSet set = read(p);
            List<DumpedSet> all = new ArrayList<>(trainSets);
            all.add(set);
            featureCount(all);
            double[] before = recall(set, new double[d]);
            double[] after = recall(set, w);
            System.out.printf(Locale.ROOT, "%s: recall@1 %.2f -> %.2f, recall@5 %.2f -> %.2f (%d queries, %d with candidates)%n",
                    set.name(), 100 * before[0], 100 * after[0], 100 * before[1], 100 * after[1], set.queries(),
                    set.withCandidates().size());
        }
        return 0;
    }

    /** The features every dumped set has; sets dumped with different features cannot be fitted together. */
    static int featureCount(List<DumpedSet> sets) {
        int d = -1;
        for (DumpedSet set : sets) {
            for (Query q : set.withCandidates()) {
                int width = q.features()[0].length;
                if (d >= 0 && width != d) {
                    throw new IllegalArgumentException(set.name() + " has " + width + " features, another dump " + d
                            + ": dump them again with the same build");
                }
                d = width;
            }
        }
        if (d < 0) {
            throw new IllegalArgumentException("the training dumps hold no candidates");
        }
        return d;
    }

    /**
     * Reads a {@code --dump-candidates} file; a line that is not one (wrong header, column count or number) is
     * refused with the file and line number.
     */
    static DumpedSet read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String[] header = lines.isEmpty() ? new String[0] : lines.get(0).split("\t");
        if (header.length != 2 || !header[0].equals("#queries")) {
            throw new IllegalArgumentException(file + ":1: expected '#queries<TAB>N' (a --dump-candidates file)");
        }
        int total = (int) number(file, 1, header[1]);
        Map<Integer, List<double[]>> byQuery = new LinkedHashMap<>();
        int width = -1;
        for (int n = 2; n <= lines.size(); n++) {
            String[] cols = lines.get(n - 1).split("\t");
            if (width < 0) {
                width = cols.length;
            }
            if (cols.length < 5 || cols.length != width) {
                throw new IllegalArgumentException(file + ":" + n + ": " + cols.length + " columns, expected "
                        + Math.max(5, width) + " (query, right tools, right, fused, features)");
            }
            double[] row = new double[cols.length];
            for (int c = 0; c < cols.length; c++) {
                row[c] = number(file, n, cols[c]);
            }
            byQuery.computeIfAbsent((int) row[0], k -> new ArrayList<>()).add(row);
        }
        List<Query> out = new ArrayList<>();
        for (List<double[]> rows : byQuery.values()) {
            int n = rows.size();
            int d = rows.get(0).length - 4;
            double[] fused = new double[n];
            double[][] f = new double[n][];
            boolean[] right = new boolean[n];
            for (int i = 0; i < n; i++) {
                double[] row = rows.get(i);
                right[i] = row[2] == 1;
                fused[i] = row[3];
                f[i] = java.util.Arrays.copyOfRange(row, 4, 4 + d);
            }
            out.add(new Query((int) rows.get(0)[1], fused, f, right));
        }
        return new DumpedSet(file.getFileName().toString(), total, out);
    }

    private static double number(Path file, int line, String text) {
        return ConfidenceFit.finite(file, line, text);
    }

    /** Newton's method on the penalised conditional log-likelihood; inactive columns stay 0. */
    static double[] fit(List<DumpedSet> sets, int d, boolean[] active, double l2) {
        double[] w = new double[d];
        double current = objective(sets, w, l2);
        for (int iter = 0; iter < 50; iter++) {
            double[] grad = new double[d];
            double[][] hess = new double[d][d];
            for (DumpedSet set : sets) {
                double weight = 1.0 / Math.max(1, set.queries());
                for (Query q : set.withCandidates()) {
                    accumulate(q, w, weight, grad, hess);
                }
            }
            for (int j = 0; j < d; j++) {
                grad[j] -= l2 * w[j] * sets.size();
                hess[j][j] -= l2 * sets.size();
            }
            double[] step = solve(hess, grad, active);
            double scale = 1;
            double[] next = w;
            double value = current;
            for (int tries = 0; tries < 30; tries++) {
                double[] candidate = w.clone();
                for (int j = 0; j < d; j++) {
                    candidate[j] -= scale * step[j];
                }
                value = objective(sets, candidate, l2);
                if (value >= current) {
                    next = candidate;
                    break;
                }
                scale /= 2;
            }
            boolean done = Math.abs(value - current) < 1e-10;
            w = next;
            current = Math.max(current, value);
            if (done) {
                break;
            }
        }
        return w;
    }

    /** Gradient and (negative semi-definite) Hessian of one query's log-likelihood, times {@code weight}. */
    private static void accumulate(Query q, double[] w, double weight, double[] grad, double[][] hess) {
        int d = w.length;
        double[] p = softmax(q, w);
        double goldMass = 0;
        for (int i = 0; i < p.length; i++) {
            goldMass += q.right()[i] ? p[i] : 0;
        }
        if (goldMass <= 0) {
            return;
        }
        double[] meanAll = new double[d];
        double[] meanGold = new double[d];
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < d; j++) {
                meanAll[j] += p[i] * q.features()[i][j];
                if (q.right()[i]) {
                    meanGold[j] += p[i] / goldMass * q.features()[i][j];
                }
            }
        }
        for (int j = 0; j < d; j++) {
            grad[j] += weight * (meanGold[j] - meanAll[j]);
        }
        for (int i = 0; i < p.length; i++) {
            double pg = q.right()[i] ? p[i] / goldMass : 0;
            for (int a = 0; a < d; a++) {
                double da = q.features()[i][a] - meanAll[a];
                double ga = q.features()[i][a] - meanGold[a];
                for (int b = 0; b < d; b++) {
                    hess[a][b] += weight * (pg * ga * (q.features()[i][b] - meanGold[b])
                            - p[i] * da * (q.features()[i][b] - meanAll[b]));
                }
            }
        }
    }

    private static double objective(List<DumpedSet> sets, double[] w, double l2) {
        double total = 0;
        for (DumpedSet set : sets) {
            double sum = 0;
            for (Query q : set.withCandidates()) {
                double[] p = softmax(q, w);
                double goldMass = 0;
                for (int i = 0; i < p.length; i++) {
                    goldMass += q.right()[i] ? p[i] : 0;
                }
                if (goldMass > 0) {
                    sum += Math.log(goldMass);
                }
            }
            total += sum / Math.max(1, set.queries());
        }
        double penalty = 0;
        for (double v : w) {
            penalty += v * v;
        }
        return total - 0.5 * l2 * sets.size() * penalty;
    }

    private static double[] softmax(Query q, double[] w) {
        int n = q.fused().length;
        double[] s = new double[n];
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            s[i] = q.fused()[i];
            for (int j = 0; j < w.length; j++) {
                s[i] += w[j] * q.features()[i][j];
            }
            max = Math.max(max, s[i]);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            s[i] = Math.exp(s[i] - max);
            sum += s[i];
        }
        for (int i = 0; i < n; i++) {
            s[i] /= sum;
        }
        return s;
    }

    /** Solves {@code hess · x = grad} over the active columns; the inactive ones get 0. */
    private static double[] solve(double[][] hess, double[] grad, boolean[] active) {
        List<Integer> idx = new ArrayList<>();
        for (int j = 0; j < grad.length; j++) {
            if (active[j]) {
                idx.add(j);
            }
        }
        int m = idx.size();
        double[][] a = new double[m][m];
        double[] b = new double[m];
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < m; c++) {
                a[r][c] = hess[idx.get(r)][idx.get(c)];
            }
            b[r] = grad[idx.get(r)];
        }
        double[] reduced = ConfidenceFit.solve(a, b);
        double[] x = new double[grad.length];
        for (int r = 0; r < m; r++) {
            x[idx.get(r)] = reduced[r];
        }
        return x;
    }

    /** Mean recall@1 and recall@5 over every query of the set when its candidates are ordered by {@code w}. */
    static double[] recall(DumpedSet set, double[] w) {
        double r1 = 0;
        double r5 = 0;
        for (Query q : set.withCandidates()) {
            int n = q.fused().length;
            Integer[] order = new Integer[n];
            double[] s = new double[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
                s[i] = q.fused()[i];
                for (int j = 0; j < w.length; j++) {
                    s[i] += w[j] * q.features()[i][j];
                }
            }
            java.util.Arrays.sort(order, (a, b) -> Double.compare(s[b], s[a]));
            int found1 = 0;
            int found5 = 0;
            for (int r = 0; r < Math.min(5, n); r++) {
                if (q.right()[order[r]]) {
                    found5++;
                    found1 += r == 0 ? 1 : 0;
                }
            }
            int gold = Math.max(1, q.gold());
            r1 += Math.min(1.0, (double) found1 / gold);
            r5 += (double) found5 / gold;
        }
        return new double[] {r1 / set.queries(), r5 / set.queries()};
    }
}
