package dev.toolsmith.search;

import java.util.List;

/**
 * Turns the evidence behind a ranking into the probability that a hit is the right tool: a logistic
 * model per retrieval mode over a handful of features of the hit and of the ranking around it.
 *
 * <p>Coefficients were fitted by {@code ConfidenceFit} (logistic regression, L2 1e-3, Newton) on the
 * top hits of both shared evaluation sets, and checked held out (fit on one set, verify on the other;
 * fit on even rows, verify on odd). Refit with the commands in docs/search.md ("Refitting"); any change
 * to ranking or features needs a refit and a fresh check of {@link SearchDefaults#SUBSTITUTION_THRESHOLD}.
 */
final class ConfidenceModel {

    /** Feature names, in coefficient order after the intercept. */
    static final List<String> FEATURES = List.of("zDense", "zLexical", "margin", "agree", "cos", "title",
            "queryTerms", "twin", "cosMargin");

    // Intercept, then one coefficient per feature in FEATURES order; one model per mode. Fitted on the top
    // hits of MetaTool (the seed-42 sample of 3,000 queries) and Gorilla-HF (911 queries), each set weighted
    // equally, with ConfidenceFit --train <metatool-MODE.tsv>,<gorilla-MODE.tsv> (docs/search.md).
    static final double[] HYBRID = {-2.3516, 0.2432, -0.0209, 0.7136, 0.7705, 0.2006, 1.9371, 0.0136, -2.0421,
        -0.4506};
    static final double[] BM25 = {-0.0041, 0.0000, -0.0336, 0.8566, -0.5295, 0.0000, 0.0000, -0.7754, 0.4074, 0.0000};
    static final double[] DENSE = {-2.6446, 0.5245, 0.0000, 3.8609, 0.8038, 1.0317, 1.8894, -0.0912, -3.4610,
        3.8609};

    private ConfidenceModel() {
    }

    /**
     * The features of the hit at {@code index}: its standardised scores, its lead over the best other hit
     * (negative below the top), whether dense, lexical and fused rankings agree on it, its raw cosine,
     * its name's cosine and the query's length.
     */
    static double[] features(List<HybridRanker.Candidate> ranked, int index, int denseTop, int lexicalTop,
            int queryTerms) {
        HybridRanker.Candidate c = ranked.get(index);
        HybridRanker.Candidate rival = index == 0 ? (ranked.size() > 1 ? ranked.get(1) : null) : ranked.get(0);
        double margin = rival == null ? 3 : Math.max(-5, Math.min(5, c.score() - rival.score()));
        double agree = (c.slot() == denseTop ? 0.5 : 0) + (c.slot() == lexicalTop ? 0.5 : 0);
        // How alike the hit and its rival are as tools: near-twins make any choice between them a coin toss.
        double twin = rival == null ? 0 : HybridRanker.dot(c.vector(), rival.vector());
        double cosMargin = rival == null ? 0.2 : c.dense() - rival.dense();
        return new double[] {clip(c.zDense()), clip(c.zLexical()), margin, agree, c.dense(), c.title(),
                Math.log1p(queryTerms), twin, cosMargin};
    }

    static double probability(RetrievalMode mode, double[] f) {
        double[] w = switch (mode) {
            case HYBRID -> HYBRID;
            case BM25 -> BM25;
            case DENSE -> DENSE;
        };
        double z = w[0];
        for (int i = 0; i < f.length; i++) {
            z += w[i + 1] * f[i];
        }
        return 1 / (1 + Math.exp(-z));
    }

    private static double clip(double v) {
        return Double.isFinite(v) ? Math.max(-10, Math.min(10, v)) : 0;
    }
}
