package dev.toolsmith.planner.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's plan ({@link ModelPlan}, read from its answer by the AI service) checked and made into plan steps: 1 to
 * {@value #MAX_STEPS} steps, each with an action verb (a name: it has a letter) and an id of its own, inputs as literal JSON values or
 * {@code {"fromStep", "output"}} references to an earlier step. Step ids are the plan id and the model's step id; a
 * reference names the step that finally served the earlier one (a follow-up after a re-plan has an id of its own).
 * A plan or choice that breaks these rules is refused with the reason, never guessed.
 */
final class PlanSteps {

    static final int MAX_STEPS = 20;

    /** The model's pick after an UNRESOLVED/PROPOSED result: a tool id with the inputs for it, or why it gives up. */
    record Choice(String toolId, Map<String, StepInput> inputs, String giveUp) {
    }

    private final List<PlanStep> steps;
    private final Map<String, String> servedBy = new HashMap<>();
    private int followUps;

    private PlanSteps(List<PlanStep> steps) {
        this.steps = steps;
    }

    List<PlanStep> steps() {
        return steps;
    }

    /**
     * The model's plan as plan steps of {@code planId}, sent as {@code caller}; {@code answered} is the model's text,
     * quoted when the plan is refused. A missing step id becomes {@code s<n>}.
     */
    static PlanSteps read(ModelPlan plan, String answered, String planId, String caller) {
        if (plan == null || plan.steps() == null || plan.steps().isEmpty() || plan.steps().size() > MAX_STEPS) {
            throw unusable("plan", "it needs \"steps\": an array of 1 to " + MAX_STEPS + " steps", answered);
        }
        List<PlanStep> steps = new ArrayList<>();
        List<String> earlier = new ArrayList<>();
        for (ModelPlan.Step item : plan.steps()) {
            String id = item == null || item.id() == null || item.id().isBlank() ? "s" + (steps.size() + 1) : item.id();
            if (item == null || item.actionVerb() == null || item.actionVerb().isBlank() || earlier.contains(id)) {
                throw unusable("plan", "every step needs an actionVerb and an id of its own", answered);
            }
            // A number where the verb belongs arrives as text (the JSON reader takes 42 for "42"): no verb has no letter.
            if (item.actionVerb().codePoints().noneMatch(Character::isLetter)) {
                throw unusable("plan", "step " + id + "'s actionVerb " + item.actionVerb() + " is not a name", answered);
            }
            Map<String, StepInput> inputs = new LinkedHashMap<>();
            inputsOf(item.inputs()).forEach((name, value) -> {
                if (value.isObject() && value.has("fromStep")) {
                    if (!earlier.contains(value.path("fromStep").asText())) {
                        throw unusable("plan", "input " + name + " refers to a step that does not come before it",
                                answered);
                    }
                    inputs.put(name, StepInput.reference(value.path("fromStep").asText(), value.path("output").asText()));
                } else {
                    inputs.put(name, literal(value));
                }
            });
            steps.add(new PlanStep(planId + "-" + id, planId, item.actionVerb(), item.description(), inputs, null, caller));
            earlier.add(id);
        }
        return new PlanSteps(List.copyOf(steps));
    }

    /** The model's choice, checked: a give-up wins; otherwise it must name a tool. Inputs are literals. */
    static Choice readChoice(ModelChoice choice, String answered) {
        if (choice != null && choice.giveUp() != null) {
            return new Choice(null, Map.of(), choice.giveUp());
        }
        if (choice == null || choice.toolId() == null || choice.toolId().isBlank()) {
            throw unusable("choice", "it needs a \"toolId\" (or \"giveUp\")", answered);
        }
        Map<String, StepInput> inputs = new LinkedHashMap<>();
        inputsOf(choice.inputs()).forEach((name, value) -> inputs.put(name, literal(value)));
        return new Choice(choice.toolId(), inputs, null);
    }

    /** {@code step} with its references pointing at the steps that served the steps they name. */
    PlanStep withResolvedReferences(PlanStep step) {
        Map<String, StepInput> inputs = new LinkedHashMap<>();
        step.inputs().forEach((name, input) -> inputs.put(name, input.isReference()
                ? StepInput.reference(servedBy.get(input.sourceStep()), input.outputName()) : input));
        return new PlanStep(step.stepId(), step.planId(), step.actionVerb(), step.description(), inputs, step.outputs(),
                step.caller(), step.toolId());
    }

    /** The step again, with a new id, naming the chosen tool and the inputs the model gave for it (or the old ones). */
    PlanStep followUp(PlanStep step, Choice choice) {
        Map<String, StepInput> inputs = choice.inputs().isEmpty() ? step.inputs() : choice.inputs();
        return new PlanStep(step.planId() + "-followup-" + (++followUps), step.planId(), step.actionVerb(), step.description(),
                inputs, step.outputs(), step.caller(), choice.toolId());
    }

    /** {@code served} (the planned step or its follow-up) is the step whose outputs later references read. */
    void recordResult(PlanStep planned, PlanStep served) {
        servedBy.put(planned.stepId().substring(planned.planId().length() + 1), served.stepId());
    }

    /** The inputs in the model's order; a JSON {@code null} (or a missing value) is a null literal, as it was sent. */
    private static Map<String, JsonNode> inputsOf(Map<String, JsonNode> inputs) {
        Map<String, JsonNode> named = new LinkedHashMap<>();
        if (inputs != null) {
            inputs.forEach((name, value) -> named.put(name, value == null ? NullNode.getInstance() : value));
        }
        return named;
    }

    private static StepInput literal(JsonNode value) {
        String type = value.isNumber() ? "number" : value.isBoolean() ? "boolean" : value.isObject() ? "object"
                : value.isArray() ? "array" : "string";
        return StepInput.literal(value, type);
    }

    /** The refusal of an answer that cannot be sent: what it was for, why, and (the start of) what the model said. */
    static IllegalStateException unusable(String what, String why, String answered) {
        String text = answered == null ? "" : answered;
        String shown = text.length() > 300 ? text.substring(0, 300) + "…" : text;
        return new IllegalStateException("the model's " + what + " cannot be used: " + why + "; it answered: " + shown);
    }
}
