package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepStatus;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a step's inputs into the JSON object a plugin takes: literals as given, references
 * {@code {outputName, sourceStep}} from the stored outputs of an earlier step of the same plan and caller
 * (another caller's step is as absent as one never sent). A
 * reference that cannot be resolved is an error naming the input, the step and the output.
 */
@ApplicationScoped
public class InputResolver {

    private final StepStore store;

    public InputResolver(StepStore store) {
        this.store = store;
    }

    /** {@code values} when every input resolved; otherwise {@code error} says which did not and why. */
    public record Resolved(ObjectNode values, String error) {

        public boolean ok() {
            return error == null;
        }
    }

    /** Whether any input names an earlier step's output (resolving those reads the database). */
    public static boolean hasReferences(PlanStep step) {
        return step.inputs().values().stream().anyMatch(StepInput::isReference);
    }

    public Uni<Resolved> resolve(PlanStep step) {
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        List<Map.Entry<String, StepInput>> references = new ArrayList<>();
        // Sorted so the plugin sees inputs in a stable order and errors name the same input every time.
        for (Map.Entry<String, StepInput> input : new TreeMap<>(step.inputs()).entrySet()) {
            if (input.getValue().isReference()) {
                references.add(input);
            } else {
                JsonNode value = input.getValue().value();
                values.set(input.getKey(), value == null ? NullNode.getInstance() : value);
            }
        }
        if (references.isEmpty()) {
            return Uni.createFrom().item(new Resolved(values, null));
        }
        return resolveReferences(step, references, 0, values);
    }

    private Uni<Resolved> resolveReferences(PlanStep step, List<Map.Entry<String, StepInput>> references, int index,
            ObjectNode values) {
        if (index == references.size()) {
            return Uni.createFrom().item(new Resolved(values, null));
        }
        String inputName = references.get(index).getKey();
        StepInput reference = references.get(index).getValue();
        return store.source(step.planId(), reference.sourceStep(), step.caller()).chain(source -> {
            String prefix = "input '" + inputName + "' refers to output '" + reference.outputName() + "' of step '"
                    + reference.sourceStep() + "'";
            if (source.isEmpty()) {
                return error(prefix + ", but plan '" + step.planId() + "' has no step '" + reference.sourceStep() + "'");
            }
            StepStore.SourceStep found = source.get();
            if (!found.done()) {
                return error(prefix + ", which has not finished yet");
            }
            if (!StepStatus.SUCCEEDED.name().equals(found.status()) && !StepStatus.SUBSTITUTED.name().equals(found.status())) {
                return error(prefix + ", which ended " + found.status() + " and has no outputs");
            }
            JsonNode outputs = found.outputs();
            if (outputs == null || !outputs.has(reference.outputName())) {
                List<String> names = new ArrayList<>();
                if (outputs != null) {
                    outputs.fieldNames().forEachRemaining(names::add);
                }
                return error(prefix + ", but step '" + reference.sourceStep() + "' has no output '"
                        + reference.outputName() + "' (its outputs: " + String.join(", ", names) + ")");
            }
            values.set(inputName, outputs.get(reference.outputName()));
            return resolveReferences(step, references, index + 1, values);
        });
    }

    private static Uni<Resolved> error(String message) {
        return Uni.createFrom().item(new Resolved(null, message));
    }
}
