package dev.toolsmith.planner.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.llm.LlmJsonAnswer;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan as the LLM wrote it, made into plan steps: {@code {"steps": [{"id", "actionVerb", "description", "inputs"}]}}
 * with inputs as literal JSON values or {@code {"fromStep", "output"}} references to an earlier step. Step ids are the
 * plan id and the model's step id; a reference names the step that finally served the earlier one (a follow-up after a
 * re-plan has an id of its own). Anything else in the answer is refused with the reason, never guessed.
 */
final class PlanSteps {

    static final int MAX_STEPS = 20;
    private static final ObjectMapper JSON = new ObjectMapper();

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

    static PlanSteps read(String answer, String planId, String caller) {
        JsonNode plan = parse(answer, "plan");
        JsonNode items = plan.path("steps");
        if (!items.isArray() || items.isEmpty() || items.size() > MAX_STEPS) {
            throw unusable("plan", "it needs \"steps\": an array of 1 to " + MAX_STEPS + " steps", answer);
        }
        List<PlanStep> steps = new ArrayList<>();
        List<String> earlier = new ArrayList<>();
        for (JsonNode item : items) {
            String id = item.path("id").asText("s" + (steps.size() + 1));
            String verb = item.path("actionVerb").asText("");
            if (verb.isBlank() || earlier.contains(id)) {
                throw unusable("plan", "every step needs an actionVerb and an id of its own", answer);
            }
            Map<String, StepInput> inputs = new LinkedHashMap<>();
            item.path("inputs").properties().forEach(input -> {
                JsonNode value = input.getValue();
                if (value.isObject() && value.has("fromStep")) {
                    if (!earlier.contains(value.path("fromStep").asText())) {
                        throw unusable("plan", "input " + input.getKey() + " refers to a step that does not come before it",
                                answer);
                    }
                    inputs.put(input.getKey(), StepInput.reference(value.path("fromStep").asText(), value.path("output").asText()));
                } else {
                    inputs.put(input.getKey(), literal(value));
                }
            });
            steps.add(new PlanStep(planId + "-" + id, planId, verb, item.path("description").asText(null), inputs, null,
                    caller));
            earlier.add(id);
        }
        return new PlanSteps(List.copyOf(steps));
    }

    static Choice readChoice(String answer) {
        JsonNode choice = parse(answer, "choice");
        if (choice.hasNonNull("giveUp")) {
            return new Choice(null, Map.of(), choice.path("giveUp").asText());
        }
        if (!choice.path("toolId").isTextual() || choice.path("toolId").asText().isBlank()) {
            throw unusable("choice", "it needs a \"toolId\" (or \"giveUp\")", answer);
        }
        Map<String, StepInput> inputs = new LinkedHashMap<>();
        choice.path("inputs").properties().forEach(input -> inputs.put(input.getKey(), literal(input.getValue())));
        return new Choice(choice.path("toolId").asText(), inputs, null);
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

    private static StepInput literal(JsonNode value) {
        String type = value.isNumber() ? "number" : value.isBoolean() ? "boolean" : value.isObject() ? "object"
                : value.isArray() ? "array" : "string";
        return StepInput.literal(value, type);
    }

    private static JsonNode parse(String answer, String what) {
        try {
            JsonNode node = JSON.readTree(LlmJsonAnswer.jsonPart(answer));
            if (node == null || !node.isObject()) {
                throw unusable(what, "it is not a JSON object", answer);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw unusable(what, "it is not JSON (" + e.getOriginalMessage() + ")", answer);
        }
    }

    private static IllegalStateException unusable(String what, String why, String answer) {
        String shown = answer.length() > 300 ? answer.substring(0, 300) + "…" : answer;
        return new IllegalStateException("the model's " + what + " cannot be used: " + why + "; it answered: " + shown);
    }
}
