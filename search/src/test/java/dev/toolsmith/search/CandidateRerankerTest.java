package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan-step reranker over hand-made candidates: what it may move, and what it must leave alone. */
class CandidateRerankerTest {

    private final CandidateReranker reranker = new CandidateReranker();

    private static HybridRanker.Candidate candidate(int slot, double fused) {
        return new HybridRanker.Candidate(slot, fused, 0.5, 1, fused, 0, 0.4, new float[0]);
    }

    private static CandidateReranker.Evidence evidence(Map<Integer, ConfidenceModel.StepEvidence> bySlot) {
        return slot -> bySlot.getOrDefault(slot, ConfidenceModel.StepEvidence.NONE);
    }

    private static List<Integer> slots(List<HybridRanker.Candidate> ranked) {
        return ranked.stream().map(HybridRanker.Candidate::slot).toList();
    }

    @Test
    void aToolTheStepsInputsFeedOvertakesOneItCannotFeed() {
        // slot 1 reads a little more like the step, but none of its required parameters can be fed; slot 2 is
        // named by the step and takes every input
        List<HybridRanker.Candidate> fused = List.of(candidate(1, 2.0), candidate(2, 1.4), candidate(3, 0.2));
        List<HybridRanker.Candidate> out = reranker.rerank(fused, evidence(Map.of(
                1, new ConfidenceModel.StepEvidence(0, 0, 0, 1),
                2, new ConfidenceModel.StepEvidence(1, 1, 0, 0))));
        assertThat(slots(out)).containsExactly(2, 1, 3);
        assertThat(out.get(0).score()).isGreaterThan(out.get(1).score());
    }

    @Test
    void withoutEvidenceTheFusedOrderStands() {
        List<HybridRanker.Candidate> fused = List.of(candidate(7, 3.0), candidate(8, 2.0), candidate(9, 1.0));
        assertThat(slots(reranker.rerank(fused, evidence(Map.of())))).containsExactly(7, 8, 9);
    }

    @Test
    void candidatesBelowTheDepthStayBehindTheHeadInTheirOrder() {
        List<HybridRanker.Candidate> fused = new ArrayList<>();
        for (int i = 0; i < CandidateReranker.DEPTH + 5; i++) {
            fused.add(candidate(i, 100 - i));
        }
        // the last of the head is pushed far down; the tail must not climb above it
        List<HybridRanker.Candidate> out = reranker.rerank(fused, evidence(Map.of(
                CandidateReranker.DEPTH - 1, new ConfidenceModel.StepEvidence(0, 0, 0, 1))));
        List<Integer> order = slots(out);
        assertThat(order.subList(CandidateReranker.DEPTH, order.size()))
                .containsExactly(30, 31, 32, 33, 34);
        for (int i = 1; i < out.size(); i++) {
            assertThat(out.get(i).score()).isLessThanOrEqualTo(out.get(i - 1).score());
        }
    }

    @Test
    void theCallersListIsNotChanged() {
        List<HybridRanker.Candidate> fused = new ArrayList<>(List.of(candidate(1, 2.0), candidate(2, 1.9)));
        List<HybridRanker.Candidate> copy = List.copyOf(fused);
        reranker.rerank(fused, evidence(Map.of(2, new ConfidenceModel.StepEvidence(1, 1, 0, 0))));
        assertThat(fused).isEqualTo(copy);
    }

    @Test
    void oneCandidateIsReturnedAsItIs() {
        List<HybridRanker.Candidate> one = List.of(candidate(4, 0.1));
        assertThat(reranker.rerank(one, evidence(Map.of()))).isSameAs(one);
    }

    @Test
    void experimentWeightsThatAreNotOnePerFeatureAreRefusedByName() {
        double[] shipped = {1, 2, 3, 4};
        try {
            System.setProperty(CandidateReranker.PROPERTY, "0,0,0,0");
            assertThat(CandidateReranker.weights(shipped)).containsExactly(0, 0, 0, 0);
            for (String bad : new String[] {"1,2", "1,2,3,4,5", "1,x,3,4", "1,,3,4", "1,NaN,3,4", "1,Infinity,3,4",
                "1,2,3,4e999"}) {
                System.setProperty(CandidateReranker.PROPERTY, bad);
                assertThatThrownBy(() -> CandidateReranker.weights(shipped))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(CandidateReranker.PROPERTY);
            }
        } finally {
            System.clearProperty(CandidateReranker.PROPERTY);
        }
        assertThat(CandidateReranker.weights(shipped)).isSameAs(shipped);
    }
}
