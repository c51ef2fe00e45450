package dev.toolsmith.bench.retrieval;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fits the confidence model: L2-regularised logistic regression (Newton's method) from the features of
 * the top hits to whether they were right, each training file weighted equally, then reports precision
 * and coverage at thresholds on every evaluation file. Input: the {@code --dump} files of
 * {@link RetrievalBenchmark}.
 *
 * <pre>
 * java -cp ... dev.toolsmith.bench.retrieval.ConfidenceFit --train a.tsv,b.tsv --eval c.tsv,d.tsv [--split]
 * </pre>
 *
 * {@code --split} fits on the even-numbered rows of each training file and evaluates on the odd ones as well.
 */
@Command(name = "ConfidenceFit", mixinStandardHelpOptions = true,
        description = "Fits the confidence model on dumps and reports precision / coverage at thresholds on others.")
public final class ConfidenceFit implements Callable<Integer> {

    static final double L2 = 1e-3;

    record Data(String name, double[][] x, int[] y) {
        Data rows(int parity) {
            List<double[]> xs = new ArrayList<>();
            List<Integer> ys = new ArrayList<>();
            for (int i = parity; i < y.length; i += 2) {
                xs.add(x[i]);
                ys.add(y[i]);
            }
            return new Data(name + (parity == 0 ? "[even]" : "[odd]"), xs.toArray(double[][]::new),
                    ys.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Option(names = "--train", required = true, split = ",", paramLabel = "FILE",
            description = "dumps the model is fitted on, each weighted equally")
    List<Path> trainFiles;
    @Option(names = "--eval", split = ",", paramLabel = "FILE",
            description = "dumps precision and coverage are reported on")
    List<Path> evalFiles;
    @Option(names = "--split", description = "fit on the even rows of each training dump, report the odd ones too")
    boolean split;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ConfidenceFit()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        List<Data> train = new ArrayList<>();
        for (Path f : trainFiles) {
            train.add(read(f));
        }
        List<Data> eval = new ArrayList<>();
        for (Path f : evalFiles == null ? List.<Path>of() : evalFiles) {
            eval.add(read(f));
        }
        if (split) {
            List<Data> halves = new ArrayList<>();
            for (Data d : train) {
                halves.add(d.rows(0));
                eval.add(d.rows(1));
            }
            train = halves;
        }
        double[] w = fit(train);
        StringBuilder sb = new StringBuilder("coefficients {");
        for (int i = 0; i < w.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", w[i]));
        }
        System.out.println(sb.append('}'));
        for (Data d : eval) {
            report(d, w);
        }
        return 0;
    }

    static double[] fit(List<Data> sets) {
        int dim = sets.get(0).x()[0].length + 1;
        double[] w = new double[dim];
        for (int iter = 0; iter < 50; iter++) {
            double[] grad = new double[dim];
            double[][] hess = new double[dim][dim];
            for (Data d : sets) {
                double weight = 1.0 / d.y().length;
                for (int r = 0; r < d.y().length; r++) {
                    double[] x = withBias(d.x()[r]);
                    double p = sigmoid(dot(w, x));
                    for (int i = 0; i < dim; i++) {
                        grad[i] += weight * (p - d.y()[r]) * x[i];
                        for (int j = 0; j < dim; j++) {
                            hess[i][j] += weight * p * (1 - p) * x[i] * x[j];
                        }
                    }
                }
            }
            for (int i = 1; i < dim; i++) {
                grad[i] += L2 * w[i];
                hess[i][i] += L2;
            }
            double[] step = solve(hess, grad);
            double change = 0;
            for (int i = 0; i < dim; i++) {
                w[i] -= step[i];
                change += Math.abs(step[i]);
            }
            if (change < 1e-8) {
                break;
            }
        }
        return w;
    }

    static void report(Data d, double[] w) {
        int n = d.y().length;
        double right = 0;
        for (int y : d.y()) {
            right += y;
        }
        System.out.printf(Locale.ROOT, "%s: %d queries, top-1 right %.3f%n", d.name(), n, right / n);
        for (double t : new double[] {0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.925, 0.95, 0.97}) {
            int cleared = 0;
            int ok = 0;
            for (int r = 0; r < n; r++) {
                if (sigmoid(dot(w, withBias(d.x()[r]))) >= t) {
                    cleared++;
                    ok += d.y()[r];
                }
            }
            System.out.printf(Locale.ROOT, "  threshold %.3f: precision %.3f coverage %.3f%n", t,
                    cleared == 0 ? Double.NaN : (double) ok / cleared, (double) cleared / n);
        }
        // reliability: mean predicted vs observed per probability decile
        StringBuilder sb = new StringBuilder("  calibration (bin: predicted/observed/n):");
        for (int b = 0; b < 10; b++) {
            double sp = 0;
            double so = 0;
            int c = 0;
            for (int r = 0; r < n; r++) {
                double p = sigmoid(dot(w, withBias(d.x()[r])));
                if (Math.min(9, (int) (p * 10)) == b) {
                    sp += p;
                    so += d.y()[r];
                    c++;
                }
            }
            if (c > 0) {
                sb.append(String.format(Locale.ROOT, " %.1f:%.2f/%.2f/%d", b / 10.0, sp / c, so / c, c));
            }
        }
        System.out.println(sb);
    }

    /** A {@code --dump} file's rows that have hits (see {@link #readAligned}). */
    static Data read(Path file) throws IOException {
        Data all = readAligned(file);
        List<double[]> xs = new ArrayList<>();
        List<Integer> ys = new ArrayList<>();
        for (int r = 0; r < all.y().length; r++) {
            if (all.x()[r] != null) { // a query without hits has no features
                xs.add(all.x()[r]);
                ys.add(all.y()[r]);
            }
        }
        return new Data(all.name(), xs.toArray(double[][]::new), ys.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * Every row of a {@code --dump} file, a query without hits as a null feature row, so two dumps of the same queries
     * stay row for row. A line that is not a dump row (a label other than 0 or 1, a feature that is not a finite
     * number, another row's feature count) is refused with the file and line number, an empty file with its name.
     */
    static Data readAligned(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + ": holds no rows; not a --dump file");
        }
        double[][] x = new double[lines.size()][];
        int[] y = new int[lines.size()];
        int width = -1;
        for (int r = 0; r < x.length; r++) {
            String[] parts = lines.get(r).split("\t");
            int line = r + 1;
            if (!parts[0].equals("0") && !parts[0].equals("1")) {
                throw new IllegalArgumentException(file + ":" + line + ": the label '" + parts[0] + "' is not 0 or 1;"
                        + " not a --dump file");
            }
            y[r] = parts[0].charAt(0) - '0';
            if (parts.length > 1) {
                if (width >= 0 && parts.length - 1 != width) {
                    throw new IllegalArgumentException(file + ":" + line + ": " + (parts.length - 1)
                            + " features where earlier rows have " + width);
                }
                width = parts.length - 1;
                x[r] = new double[width];
                for (int i = 1; i < parts.length; i++) {
                    x[r][i - 1] = finite(file, line, parts[i]);
                }
            }
        }
        return new Data(file.getFileName().toString(), x, y);
    }

    /** A dump's number, or an error naming the file and line. */
    static double finite(Path file, int line, String text) {
        try {
            // parseDouble trims control characters (a NUL too) before reading: a padded number is not a dump's
            double v = text.equals(text.trim()) ? Double.parseDouble(text) : Double.NaN;
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // named below
        }
        throw new IllegalArgumentException(file + ":" + line + ": '" + text + "' is not a finite number");
    }

    private static double[] withBias(double[] x) {
        double[] out = new double[x.length + 1];
        out[0] = 1;
        System.arraycopy(x, 0, out, 1, x.length);
        return out;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static double sigmoid(double z) {
        return 1 / (1 + Math.exp(-z));
    }

    /** Gaussian elimination with partial pivoting; the system is tiny (also {@link RerankFit}'s Newton steps). */
    static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        double[][] m = new double[n][n + 1];
        for (int i = 0; i < n; i++) {
            System.arraycopy(a[i], 0, m[i], 0, n);
            m[i][n] = b[i];
        }
        for (int c = 0; c < n; c++) {
            int pivot = c;
            for (int r = c + 1; r < n; r++) {
                if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) {
                    pivot = r;
                }
            }
            double[] t = m[c];
            m[c] = m[pivot];
            m[pivot] = t;
            if (Math.abs(m[c][c]) < 1e-12) {
                m[c][c] = 1e-12;
            }
            for (int r = 0; r < n; r++) {
                if (r != c) {
                    double f = m[r][c] / m[c][c];
                    for (int k = c; k <= n; k++) {
                        m[r][k] -= f * m[c][k];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = m[i][n] / m[i][i];
        }
        return x;
    }
}
