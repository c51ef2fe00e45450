package dev.toolsmith.search;

import java.util.ArrayList;
import java.util.List;

/**
 * Third stage, for plan steps: re-orders the best fused candidates by evidence the fusion does not see. Stateless
 * and thread-safe.
 *
 * <p>The fused score ({@link HybridRanker}) says how alike the step's words and the tool's whole text are. It does
 * not say whether the tool's own name is what the step asks for ({@code title}: the query's cosine with the tool's
 * name; {@code nameCover}: the share of the tool's verb and name words the step says), whether the step's inputs
 * can feed the tool ({@code inputFit}) or leave its required parameters empty ({@code requiredUnfed}). Each reads
 * the same on any catalog. The new score is {@code fused + w · features}. The weights are a conditional-logit fit
 * (the right tool against the other candidates of its step) by {@code RerankFit} on both step sets; fitted on one
 * and measured on the other they lift recall@1 and recall@5 in both directions (docs/search-measurements.md, "Reranking").
 *
 * <p>Free text is not re-ordered: fitted on MetaTool or on Gorilla-HF, the same kind of weights lowered recall@5 on
 * the other set, so nothing of them carries across catalogs.
 */
final class CandidateReranker {

    /** How many of the best fused candidates are re-ordered; the rest keep their place behind them. */
    static final int DEPTH = 30;

    /** Feature names, in weight order. */
    static final List<String> FEATURES = List.of("title", "nameCover", "inputFit", "requiredUnfed");

    /** Replaces {@link #STEP} for experiments ({@code -Dtoolsmith.search.rerank.step=0,0,0,0}: the fused order). */
    static final String PROPERTY = "toolsmith.search.rerank.step";

    /**
     * Plan steps: fitted 2026-11-28 on the OpenAPI steps and the Seal-Tools steps, each weighted equally
     * ({@code RerankFit}, L2 0.01 per query).
     */
    static final double[] STEP = weights(new double[] {1.6505, 1.8734, 1.8049, -1.5144});

    /** The evidence about one candidate that only its tool and the query give. */
    interface Evidence {
        ConfidenceModel.StepEvidence of(int slot);
    }

    /** The candidates, the best {@link #DEPTH} re-scored and re-sorted; the input list is not changed. */
    List<HybridRanker.Candidate> rerank(List<HybridRanker.Candidate> ranked, Evidence evidence) {
        if (ranked.size() < 2) {
            return ranked;
        }
        int depth = Math.min(DEPTH, ranked.size());
        List<HybridRanker.Candidate> head = new ArrayList<>(depth);
        for (int i = 0; i < depth; i++) {
            HybridRanker.Candidate c = ranked.get(i);
            double[] f = features(c, evidence.of(c.slot()));
            double score = c.score();
            for (int j = 0; j < STEP.length; j++) {
                score += STEP[j] * f[j];
            }
            head.add(c.withScore(score));
        }
        head.sort((a, b) -> Double.compare(b.score(), a.score()));
        // the rest stay below the re-ordered head whatever their fused score: they were not looked at again
        double floor = head.get(head.size() - 1).score();
        List<HybridRanker.Candidate> out = new ArrayList<>(ranked.size());
        out.addAll(head);
        for (int i = depth; i < ranked.size(); i++) {
            HybridRanker.Candidate c = ranked.get(i);
            out.add(c.withScore(Math.min(c.score(), floor)));
        }
        return out;
    }

    /** The reranking features of one candidate, in {@link #FEATURES} order. */
    static double[] features(HybridRanker.Candidate c, ConfidenceModel.StepEvidence e) {
        return new double[] {c.title(), e.nameCover(), e.inputFit(), e.requiredUnfed()};
    }

    /**
     * The best {@link #DEPTH} fused candidates' fused score and reranking features, one row each, best first
     * (the refit's input; for free text too, so its weights can be measured again).
     */
    static List<double[]> featureRows(List<HybridRanker.Candidate> ranked, Evidence evidence) {
        int depth = Math.min(DEPTH, ranked.size());
        List<double[]> rows = new ArrayList<>(depth);
        for (int i = 0; i < depth; i++) {
            HybridRanker.Candidate c = ranked.get(i);
            double[] f = features(c, evidence.of(c.slot()));
            double[] row = new double[f.length + 1];
            row[0] = c.score();
            System.arraycopy(f, 0, row, 1, f.length);
            rows.add(row);
        }
        return rows;
    }

    /**
     * The shipped weights, or (experiments only) one comma-separated weight per feature from
     * {@code toolsmith.search.rerank.step}; anything else is refused with the property's name, not read as 0.
     */
    static double[] weights(double[] shipped) {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return shipped;
        }
        String[] parts = value.split(",", -1);
        if (parts.length != FEATURES.size()) {
            throw new IllegalArgumentException(PROPERTY + "='" + value + "': expected " + FEATURES.size()
                    + " comma-separated weights, for " + FEATURES);
        }
        double[] w = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                w[i] = Double.parseDouble(parts[i].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(PROPERTY + "='" + value + "': '" + parts[i].strip()
                        + "' (" + FEATURES.get(i) + ") is not a number", e);
            }
            if (!Double.isFinite(w[i])) {
                throw new IllegalArgumentException(PROPERTY + "='" + value + "': " + FEATURES.get(i) + " is not finite");
            }
        }
        return w;
    }
}
