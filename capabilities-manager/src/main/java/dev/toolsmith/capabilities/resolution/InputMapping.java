package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a step's inputs feed a candidate tool: {@code assignments} maps each tool parameter to the step
 * input that feeds it; {@code unmappedRequired} lists required parameters no input could feed.
 */
public record InputMapping(Map<String, String> assignments, List<String> unmappedRequired, Set<String> guessedByType) {

    public InputMapping {
        assignments = Map.copyOf(assignments);
        unmappedRequired = List.copyOf(unmappedRequired);
        guessedByType = Set.copyOf(guessedByType);
    }

    public InputMapping(Map<String, String> assignments, List<String> unmappedRequired) {
        this(assignments, unmappedRequired, Set.of());
    }

    /** Fewer named inputs than this are too common a shape ({@code text}, {@code query}) to count as evidence. */
    static final int MIN_CONFIRMING_INPUTS = 2;

    /**
     * The step's inputs are the tool's contract: every input feeds a parameter by name (no guess by
     * type), every required parameter is fed, and there are at least {@link #MIN_CONFIRMING_INPUTS}.
     */
    public boolean matchesExactly(ObjectNode stepInputs) {
        return complete() && guessedByType.isEmpty() && assignments.size() >= MIN_CONFIRMING_INPUTS
                && assignments.size() == stepInputs.size();
    }

    public boolean complete() {
        return unmappedRequired.isEmpty();
    }

    /** The tool's input object: each parameter given the value of the step input assigned to it. */
    public ObjectNode apply(ObjectNode stepInputs) {
        ObjectNode toolInputs = stepInputs.objectNode();
        assignments.forEach((parameter, input) -> toolInputs.set(parameter, stepInputs.get(input)));
        return toolInputs;
    }
}
