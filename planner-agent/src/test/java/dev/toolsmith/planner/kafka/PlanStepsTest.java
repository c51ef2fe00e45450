package dev.toolsmith.planner.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.contracts.step.PlanStep;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanStepsTest {

    private static final String PLAN = """
            Here is the plan:
            ```json
            {"steps": [
              {"id": "rate", "actionVerb": "LOOK_UP_RATE", "description": "the EUR/USD rate", "inputs": {"pair": "EUR/USD"}},
              {"id": "total", "actionVerb": "MULTIPLY", "inputs": {"a": 100, "b": {"fromStep": "rate", "output": "rate"}}}
            ]}
            ```""";

    @Test
    void aPlanBecomesSignedStepsOfOnePlanWithLiteralsAndReferences() {
        PlanSteps plan = PlanSteps.read(PLAN, "agent-1", "planner");
        List<PlanStep> steps = plan.steps();
        assertThat(steps).extracting(PlanStep::stepId).containsExactly("agent-1-rate", "agent-1-total");
        assertThat(steps).extracting(PlanStep::caller).containsOnly("planner");
        assertThat(steps.get(0).inputs().get("pair").value().asText()).isEqualTo("EUR/USD");
        assertThat(steps.get(1).inputs().get("a").valueType()).isEqualTo("number");
        assertThat(steps.get(1).inputs().get("b").isReference()).isTrue();
    }

    @Test
    void aReferenceNamesTheStepThatFinallyServedTheEarlierOne() {
        PlanSteps plan = PlanSteps.read(PLAN, "agent-1", "planner");
        PlanStep first = plan.steps().get(0);
        PlanStep followUp = plan.followUp(first, PlanSteps.readChoice("{\"toolId\": \"fx:rate\", \"inputs\": {\"base\": \"EUR\"}}"));
        assertThat(followUp.toolId()).isEqualTo("fx:rate");
        assertThat(followUp.stepId()).isNotEqualTo(first.stepId());
        assertThat(followUp.inputs()).containsOnlyKeys("base");
        plan.recordResult(first, followUp);
        assertThat(plan.withResolvedReferences(plan.steps().get(1)).inputs().get("b").sourceStep())
                .isEqualTo(followUp.stepId());
    }

    @Test
    void whatCannotBeSentIsRefusedWithTheReason() {
        assertThatThrownBy(() -> PlanSteps.read("I would convert it.", "p", "planner"))
                .hasMessageContaining("plan cannot be used").hasMessageContaining("I would convert it.");
        assertThatThrownBy(() -> PlanSteps.read("{\"steps\": []}", "p", "planner")).hasMessageContaining("1 to 20 steps");
        assertThatThrownBy(() -> PlanSteps.read("{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"X\", \"inputs\": "
                + "{\"v\": {\"fromStep\": \"b\", \"output\": \"o\"}}}]}", "p", "planner"))
                .hasMessageContaining("does not come before it");
        assertThatThrownBy(() -> PlanSteps.readChoice("{\"inputs\": {}}")).hasMessageContaining("toolId");
        assertThat(PlanSteps.readChoice("{\"giveUp\": \"nothing fits\"}").giveUp()).isEqualTo("nothing fits");
    }
}
