package dev.toolsmith.search;

/**
 * A monotone re-mapping of the step models' logistic probability to the share of top hits that were right at that
 * probability. The logistic curve is too flat at its top for plan steps: hits it scored about 0.96 were right about
 * 98 % of the time, so at the 0.95 threshold it was 99 % precise and left answerable steps to the planner (issue 21).
 *
 * <p>Each table is a list of knots {probability, calibrated}, both ascending, from (0, 0) to (1, 1); between knots
 * the map is linear, outside them it is clamped to the end knots. It only re-labels scores: a higher probability
 * never maps lower, so the ranking of hits and what clears the threshold in ranked order are kept. Fitted by
 * isotonic regression (pool-adjacent-violators, blocks of at least 2 % of the rows) on cross-fitted probabilities of
 * the step sets the models are fitted on, printed by {@code StepCalibration} in the benchmarks
 * (docs/search-measurements.md, "Refitting the confidence"); any refit of {@link ConfidenceModel#STEP_HYBRID} or
 * {@link ConfidenceModel#STEP_BM25} needs a refit of its table.
 */
final class ConfidenceCalibration {

    /** For {@link ConfidenceModel#STEP_HYBRID}, fitted with it (2026-11-29) on its three step sets. */
    static final double[][] STEP_HYBRID = {{0.000000, 0.000000}, {0.388145, 0.433481}, {0.561201, 0.558893},
        {0.634369, 0.624753}, {0.690446, 0.674211}, {0.733496, 0.709853}, {0.758729, 0.725473}, {0.786181, 0.754870},
        {0.824760, 0.811685}, {0.865836, 0.833242}, {0.894498, 0.907837}, {0.917516, 0.911927}, {0.937171, 0.956515},
        {0.948914, 0.977391}, {0.964088, 0.985491}, {0.981957, 0.998708}, {0.994776, 0.999207}, {0.998524, 1.000000},
        {1.000000, 1.000000}};
    /** For {@link ConfidenceModel#STEP_BM25} (the cascade's decision), fitted with it (2026-11-29). */
    static final double[][] STEP_BM25 = {{0.000000, 0.000000}, {0.027248, 0.008677}, {0.082889, 0.094051},
        {0.163452, 0.190150}, {0.221805, 0.209434}, {0.289927, 0.300106}, {0.357127, 0.351303}, {0.434458, 0.436760},
        {0.508437, 0.460785}, {0.564055, 0.533245}, {0.615760, 0.572603}, {0.645953, 0.613754}, {0.694674, 0.708346},
        {0.742726, 0.757322}, {0.778965, 0.787201}, {0.816764, 0.828393}, {0.879626, 0.900978}, {0.958910, 0.971025},
        {0.986267, 0.986278}, {0.992462, 0.990460}, {0.998100, 0.999571}, {1.000000, 1.000000}};

    /** For {@link ConfidenceModel#CAUTIOUS_STEP_HYBRID}, fitted with it (2026-11-28, a tenth of the rows tool-less steps). */
    static final double[][] CAUTIOUS_STEP_HYBRID = {{0.000000, 0.000000}, {0.160751, 0.173734}, {0.314663, 0.305385},
        {0.409395, 0.445441}, {0.495960, 0.463005}, {0.569021, 0.567345}, {0.639874, 0.574862}, {0.692458, 0.670064},
        {0.748676, 0.753425}, {0.797514, 0.760120}, {0.824695, 0.812833}, {0.846127, 0.849122}, {0.864656, 0.856749},
        {0.887883, 0.863912}, {0.911466, 0.929585}, {0.928534, 0.947280}, {0.939755, 0.958330}, {0.952150, 0.970465},
        {0.974074, 0.986321}, {0.987545, 0.991037}, {0.992868, 0.997994}, {1.000000, 1.000000}};
    /** For {@link ConfidenceModel#CAUTIOUS_STEP_BM25}, fitted with it. */
    static final double[][] CAUTIOUS_STEP_BM25 = {{0.000000, 0.000000}, {0.022582, 0.004009}, {0.050393, 0.058210},
        {0.086808, 0.066631}, {0.178543, 0.168551}, {0.314540, 0.311379}, {0.385203, 0.372693}, {0.430975, 0.422076},
        {0.483193, 0.440468}, {0.527527, 0.484081}, {0.593028, 0.569658}, {0.657085, 0.662222}, {0.697847, 0.719099},
        {0.756983, 0.787355}, {0.825897, 0.868055}, {0.863874, 0.901002}, {0.903315, 0.924295}, {0.937494, 0.933085},
        {0.955462, 0.937946}, {0.975317, 0.976928}, {0.984867, 0.985479}, {0.988658, 0.989825}, {0.992403, 0.994485},
        {1.000000, 1.000000}};

    private ConfidenceCalibration() {
    }

    /** The calibrated probability: linear between the knots around {@code p}, the end knot's value outside them. */
    static double apply(double[][] knots, double p) {
        if (!(p > knots[0][0])) {
            return knots[0][1]; // NaN too: an undefined score is never confident
        }
        for (int i = 1; i < knots.length; i++) {
            if (p <= knots[i][0]) {
                double width = knots[i][0] - knots[i - 1][0];
                double t = width == 0 ? 1 : (p - knots[i - 1][0]) / width;
                return knots[i - 1][1] + t * (knots[i][1] - knots[i - 1][1]);
            }
        }
        return knots[knots.length - 1][1];
    }
}
