package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Checks an LLM's decomposition of a step, already read into a {@link ProposedPlan}, before anyone sees
 * it: a non-empty {@code steps} array of at most the allowed length; step ids unique; every verb
 * registered and serving; every reference pointing to an earlier step of the decomposition (or to a
 * step the original step already referred to) and to an output that step's tool declares; every
 * required input of each tool given. Inputs may be written {@code {"value": ...}}, {@code {"sourceStep",
 * "outputName"}} or as a bare value (taken as a literal). Valid plans
 * are returned with step ids prefixed by the original step id so they are unique in the planner's plan.
 */
public final class DecompositionValidator {

    private final int maxSteps;

    public DecompositionValidator(int maxSteps) {
        this.maxSteps = maxSteps;
    }

    public record Result(List<PlanStep> plan, List<String> errors) {

        public boolean valid() {
            return errors.isEmpty();
        }
    }

    public Result validate(ProposedPlan answer, PlanStep original, Function<String, Optional<Plugin>> registeredVerb) {
        List<ProposedStep> steps = answer == null ? null : answer.steps();
        if (steps == null || steps.isEmpty()) {
            return invalid("the answer must be a JSON object {\"steps\": [...]} with at least one step");
        }
        if (steps.size() > maxSteps) {
            return invalid("the plan has " + steps.size() + " steps; at most " + maxSteps + " are allowed");
        }
        Set<String> external = new HashSet<>();
        original.inputs().values().stream().filter(StepInput::isReference).forEach(in -> external.add(in.sourceStep()));

        List<String> errors = new ArrayList<>();
        Map<String, Plugin> earlier = new LinkedHashMap<>();
        Set<String> ids = new HashSet<>();
        List<PlanStep> plan = new ArrayList<>();
        int index = 0;
        for (ProposedStep step : steps) {
            index++;
            if (step == null) {
                errors.add("step #" + index + " is null; every step must be an object");
                continue;
            }
            String id = trimmed(step.stepId());
            String label = id.isEmpty() ? "step #" + index : "step '" + id + "'";
            if (id.isEmpty()) {
                errors.add(label + " has no stepId");
            } else if (!ids.add(id)) {
                errors.add("stepId '" + id + "' is used by more than one step");
            }
            String verb = trimmed(step.actionVerb());
            Optional<Plugin> plugin = verb.isEmpty() ? Optional.empty() : registeredVerb.apply(verb);
            if (verb.isEmpty()) {
                errors.add(label + " has no actionVerb");
            } else if (plugin.isEmpty()) {
                errors.add(label + " uses verb '" + verb + "', which is not registered: use only the listed verbs");
            }
            Map<String, StepInput> inputs = new LinkedHashMap<>();
            Map<String, JsonNode> given = step.inputs() == null ? Map.of() : step.inputs();
            given.forEach((name, written) -> {
                // a JSON null may reach the map as Java null
                JsonNode input = written == null ? NullNode.getInstance() : written;
                if (input.isObject() && input.hasNonNull("sourceStep")) {
                    String source = input.path("sourceStep").asText();
                    String output = input.path("outputName").asText("");
                    if (earlier.containsKey(source)) {
                        Plugin producer = earlier.get(source);
                        if (output.isEmpty()) {
                            errors.add(label + " input '" + name + "' refers to step '" + source + "' without an outputName");
                        } else if (!declaresOutput(producer, output)) {
                            errors.add(label + " input '" + name + "' refers to output '" + output + "' of step '"
                                    + source + "', but " + producer.verb() + " produces: " + outputsOf(producer));
                        }
                        inputs.put(name, StepInput.reference(prefixed(original, source), output));
                    } else if (external.contains(source)) {
                        inputs.put(name, StepInput.reference(source, output));
                    } else {
                        errors.add(label + " input '" + name + "' refers to step '" + source
                                + "', which is not an earlier step of this plan");
                        inputs.put(name, StepInput.reference(source, output));
                    }
                } else if (input.isObject() && input.has("value")) {
                    inputs.put(name, StepInput.literal(input.get("value"), input.path("valueType").asText(null)));
                } else {
                    // A bare value is what the LLM most often means; accept it as a literal.
                    inputs.put(name, StepInput.literal(input, null));
                }
            });
            plugin.ifPresent(p -> p.manifest().inputSchema().path("required").forEach(required -> {
                if (!inputs.containsKey(required.asText())) {
                    errors.add(label + " (" + p.verb() + ") lacks required input '" + required.asText() + "'");
                }
            }));
            if (!id.isEmpty() && plugin.isPresent()) {
                earlier.putIfAbsent(id, plugin.get());
                plan.add(new PlanStep(prefixed(original, id), original.planId(), plugin.get().verb(),
                        step.description(), inputs, null, original.caller()));
            }
        }
        return errors.isEmpty() ? new Result(plan, List.of()) : new Result(List.of(), errors);
    }

    private static String trimmed(String text) {
        return text == null ? "" : text.trim();
    }

    private static boolean declaresOutput(Plugin plugin, String output) {
        JsonNode properties = plugin.manifest().outputSchema() == null ? null
                : plugin.manifest().outputSchema().get("properties");
        return properties == null || properties.has(output);
    }

    private static String outputsOf(Plugin plugin) {
        List<String> names = new ArrayList<>();
        plugin.manifest().outputSchema().path("properties").fieldNames().forEachRemaining(names::add);
        return String.join(", ", names);
    }

    private static String prefixed(PlanStep original, String id) {
        return original.stepId() + "." + id;
    }

    private static Result invalid(String error) {
        return new Result(List.of(), List.of(error));
    }
}
