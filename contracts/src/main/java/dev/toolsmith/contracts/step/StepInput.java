package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One input of a plan step: either a literal {@code {value, valueType}} or a reference
 * {@code {outputName, sourceStep}} to an output of an earlier step of the same plan.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepInput(JsonNode value, String valueType, String outputName, String sourceStep) {

    public static StepInput literal(JsonNode value, String valueType) {
        return new StepInput(value, valueType, null, null);
    }

    public static StepInput reference(String sourceStep, String outputName) {
        return new StepInput(null, null, outputName, sourceStep);
    }

    @JsonIgnore
    public boolean isReference() {
        return sourceStep != null;
    }
}
