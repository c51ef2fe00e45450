package dev.toolsmith.planner.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.step.PlanStep;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The checks on the model's typed plan and choice; how an answer becomes these records is {@link PlanningChatTest}'s. */
class PlanStepsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PLAN = """
            {"steps": [
              {"id": "rate", "actionVerb": "LOOK_UP_RATE", "description": "the EUR/USD rate", "inputs": {"pair": "EUR/USD"}},
              {"id": "total", "actionVerb": "MULTIPLY", "inputs": {"a": 100, "b": {"fromStep": "rate", "output": "rate"},
                "round": true, "none": null}}
            ]}""";

    @Test
    void aPlanBecomesSignedStepsOfOnePlanWithLiteralsAndReferences() {
        List<PlanStep> steps = read(PLAN).steps();
        assertThat(steps).extracting(PlanStep::stepId).containsExactly("agent-1-rate", "agent-1-total");
        assertThat(steps).extracting(PlanStep::planId).containsOnly("agent-1");
        assertThat(steps).extracting(PlanStep::caller).containsOnly("planner");
        assertThat(steps.get(0).description()).isEqualTo("the EUR/USD rate");
        assertThat(steps.get(0).inputs().get("pair").value().asText()).isEqualTo("EUR/USD");
        assertThat(steps.get(0).inputs().get("pair").valueType()).isEqualTo("string");
        assertThat(steps.get(1).inputs().get("a").valueType()).isEqualTo("number");
        assertThat(steps.get(1).inputs().get("round").valueType()).isEqualTo("boolean");
        assertThat(steps.get(1).inputs().get("none").value().isNull()).isTrue();
        assertThat(steps.get(1).inputs().get("b").isReference()).isTrue();
        assertThat(steps.get(1).inputs().get("b").sourceStep()).isEqualTo("rate");
        assertThat(steps.get(1).inputs().get("b").outputName()).isEqualTo("rate");
    }

    @Test
    void aStepWithoutAnIdIsNumbered() {
        List<PlanStep> steps = read("{\"steps\": [{\"actionVerb\": \"A\"}, {\"id\": \" \", \"actionVerb\": \"B\"}]}").steps();
        assertThat(steps).extracting(PlanStep::stepId).containsExactly("agent-1-s1", "agent-1-s2");
        assertThat(steps.get(0).inputs()).isEmpty();
    }

    @Test
    void aReferenceNamesTheStepThatFinallyServedTheEarlierOne() {
        PlanSteps plan = read(PLAN);
        PlanStep first = plan.steps().get(0);
        PlanStep followUp = plan.followUp(first, choice("{\"toolId\": \"fx:rate\", \"inputs\": {\"base\": \"EUR\"}}"));
        assertThat(followUp.toolId()).isEqualTo("fx:rate");
        assertThat(followUp.stepId()).isNotEqualTo(first.stepId());
        assertThat(followUp.inputs()).containsOnlyKeys("base");
        plan.recordResult(first, followUp);
        assertThat(plan.withResolvedReferences(plan.steps().get(1)).inputs().get("b").sourceStep())
                .isEqualTo(followUp.stepId());
    }

    @Test
    void aFollowUpWithoutInputsKeepsTheStepsOwn() {
        PlanSteps plan = read(PLAN);
        PlanStep followUp = plan.followUp(plan.steps().get(0), choice("{\"toolId\": \"fx:rate\"}"));
        assertThat(followUp.inputs()).containsOnlyKeys("pair");
    }

    @Test
    void aPlanWithoutOneToTwentyStepsIsRefused() {
        String tooMany = IntStream.rangeClosed(1, PlanSteps.MAX_STEPS + 1)
                .mapToObj(n -> "{\"id\": \"s" + n + "\", \"actionVerb\": \"A\"}").collect(Collectors.joining(", "));
        for (String plan : List.of("{\"steps\": []}", "{}", "{\"steps\": [" + tooMany + "]}")) {
            assertThatThrownBy(() -> read(plan)).as(plan).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("the model's plan cannot be used: ").hasMessageContaining("1 to 20 steps")
                    .hasMessageContaining("it answered: ");
        }
        assertThatThrownBy(() -> PlanSteps.read(null, "", "p", "planner")).hasMessageContaining("1 to 20 steps");
        String twenty = IntStream.rangeClosed(1, PlanSteps.MAX_STEPS)
                .mapToObj(n -> "{\"id\": \"s" + n + "\", \"actionVerb\": \"A\"}").collect(Collectors.joining(", "));
        assertThat(read("{\"steps\": [" + twenty + "]}").steps()).hasSize(20);
    }

    @Test
    void aStepWithoutAVerbOrWithAnotherStepsIdIsRefused() {
        for (String plan : List.of("{\"steps\": [{\"id\": \"a\"}]}", "{\"steps\": [{\"id\": \"a\", \"actionVerb\": \" \"}]}",
                "{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"A\"}, {\"id\": \"a\", \"actionVerb\": \"B\"}]}",
                "{\"steps\": [{\"actionVerb\": \"A\"}, {\"id\": \"s1\", \"actionVerb\": \"B\"}]}")) {
            assertThatThrownBy(() -> read(plan)).as(plan)
                    .hasMessageContaining("every step needs an actionVerb and an id of its own").hasMessageContaining(plan);
        }
        assertThatThrownBy(() -> PlanSteps.read(new ModelPlan(Collections.singletonList(null)), "", "p", "planner"))
                .hasMessageContaining("every step needs an actionVerb");
    }

    @Test
    void aVerbWithoutALetterIsRefused() {
        // the JSON reader turns "actionVerb": 42 into the text 42
        assertThatThrownBy(() -> read("{\"steps\": [{\"id\": \"a\", \"actionVerb\": 42}]}"))
                .hasMessageStartingWith("the model's plan cannot be used: step a's actionVerb 42 is not a name");
        assertThatThrownBy(() -> read("{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"__\"}]}"))
                .hasMessageContaining("is not a name");
        assertThat(read("{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"CONVERT_V2\"}]}").steps()).hasSize(1);
    }

    @Test
    void aReferenceToAStepThatDoesNotComeBeforeIsRefused() {
        for (String plan : List.of(
                "{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"X\", \"inputs\": {\"v\": {\"fromStep\": \"b\", \"output\": \"o\"}}},"
                        + " {\"id\": \"b\", \"actionVerb\": \"Y\"}]}",
                "{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"X\", \"inputs\": {\"v\": {\"fromStep\": \"a\", \"output\": \"o\"}}}]}",
                "{\"steps\": [{\"id\": \"a\", \"actionVerb\": \"X\", \"inputs\": {\"v\": {\"fromStep\": 7}}}]}")) {
            assertThatThrownBy(() -> read(plan)).as(plan).hasMessageContaining("input v refers to a step that does not come before it");
        }
    }

    @Test
    void aChoiceNamesAToolOrGivesUp() {
        PlanSteps.Choice chosen = choice("{\"toolId\": \"fx:convert\", \"inputs\": {\"amount\": 100, \"pair\": {\"from\": \"EUR\"}}}");
        assertThat(chosen.toolId()).isEqualTo("fx:convert");
        assertThat(chosen.giveUp()).isNull();
        assertThat(chosen.inputs().get("amount").valueType()).isEqualTo("number");
        // a choice's inputs are literals: the follow-up step runs the chosen tool on them as they are
        assertThat(chosen.inputs().get("pair").valueType()).isEqualTo("object");
        assertThat(choice("{\"giveUp\": \"nothing fits\", \"toolId\": \"fx:convert\"}").giveUp()).isEqualTo("nothing fits");
        for (String answer : List.of("{\"inputs\": {}}", "{\"toolId\": \" \"}", "{}")) {
            assertThatThrownBy(() -> choice(answer)).as(answer)
                    .hasMessageStartingWith("the model's choice cannot be used: it needs a \"toolId\" (or \"giveUp\")")
                    .hasMessageContaining(answer);
        }
        assertThatThrownBy(() -> PlanSteps.readChoice(null, "")).hasMessageContaining("toolId");
    }

    @Test
    void aLongAnswerIsQuotedOnlyInPart() {
        String answer = "{\"steps\": []}" + " ".repeat(400) + "END";
        assertThatThrownBy(() -> PlanSteps.read(new ModelPlan(List.of()), answer, "p", "planner"))
                .hasMessageEndingWith("…").message().doesNotContain("END");
    }

    private static PlanSteps read(String plan) {
        return PlanSteps.read(parse(plan, ModelPlan.class), plan, "agent-1", "planner");
    }

    private static PlanSteps.Choice choice(String answer) {
        return PlanSteps.readChoice(parse(answer, ModelChoice.class), answer);
    }

    private static <T> T parse(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
