package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The text {@link DecompositionLlm} is sent: the instructions with the verbs the plan may use, the step
 * to decompose, and the one correction naming what was wrong with the previous answer.
 */
final class DecompositionPrompts {

    private DecompositionPrompts() {
    }

    /** The rules and the serving verbs (sorted, at most {@code maxVerbs}) with their inputs and outputs. */
    static String instructions(Collection<Plugin> plugins, int maxVerbs) {
        StringBuilder prompt = new StringBuilder("""
                You decompose one step of a plan into a short sequence of steps that use ONLY the verbs listed \
                below. Answer with one JSON object and nothing else:
                {"steps": [{"stepId": "s1", "actionVerb": "<a listed verb>", "description": "<why>",
                            "inputs": {"<input name>": {"value": <JSON value>} or {"sourceStep": "<earlier stepId>", "outputName": "<its output>"}}}]}
                Rules: stepIds are unique; a sourceStep is an earlier step of your plan (or a step the original step \
                already refers to); give every required input; never use a verb that is not listed. If the \
                step cannot be done with these verbs, answer {"steps": []}.
                Verbs:
                """);
        plugins.stream().filter(Plugin::serves).sorted(Comparator.comparing(Plugin::verb)).limit(maxVerbs)
                .forEach(plugin -> prompt.append("- ").append(plugin.verb()).append(": ")
                        .append(plugin.manifest().description()).append(" Inputs: ")
                        .append(parameters(plugin.manifest().inputSchema())).append(". Outputs: ")
                        .append(parameters(plugin.manifest().outputSchema())).append(".\n"));
        return prompt.toString();
    }

    /** The step with its inputs; a reference also shows the value it currently resolves to. */
    static String step(PlanStep step, ObjectNode resolvedInputs) {
        StringBuilder prompt = new StringBuilder("Step to decompose: ").append(step.actionVerb());
        if (step.description() != null) {
            prompt.append(" — ").append(step.description());
        }
        prompt.append("\nIts inputs:\n");
        Map<String, StepInput> inputs = step.inputs() == null ? Map.of() : new TreeMap<>(step.inputs());
        for (Map.Entry<String, StepInput> input : inputs.entrySet()) {
            StepInput given = input.getValue();
            prompt.append("- ").append(input.getKey()).append(": ");
            if (given.isReference()) {
                prompt.append("{\"sourceStep\": \"").append(given.sourceStep()).append("\", \"outputName\": \"")
                        .append(given.outputName()).append("\"}");
                JsonNode resolved = resolvedInputs == null ? null : resolvedInputs.get(input.getKey());
                if (resolved != null) {
                    prompt.append(" (currently ").append(abbreviate(resolved.toString())).append(")");
                }
            } else {
                prompt.append(abbreviate(Optional.ofNullable(given.value()).map(JsonNode::toString).orElse("null")));
            }
            prompt.append('\n');
        }
        return prompt.toString();
    }

    /**
     * The second and last request: the step again (the service keeps no conversation), the previous
     * answer as it was read, and every problem found in it.
     */
    static String correction(String stepPrompt, String previousAnswer, List<String> problems) {
        return stepPrompt + "\nYour previous answer:\n" + previousAnswer
                + "\nYour plan was rejected:\n- " + String.join("\n- ", problems)
                + "\nAnswer again with the corrected JSON object only.";
    }

    private static String parameters(JsonNode schema) {
        if (schema == null || !schema.path("properties").isObject()) {
            return "any";
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        List<String> described = new ArrayList<>();
        schema.get("properties").fields().forEachRemaining(field -> described.add(field.getKey()
                + " (" + field.getValue().path("type").asText("any") + (required.contains(field.getKey()) ? ", required" : "")
                + ")"));
        return String.join(", ", described);
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
