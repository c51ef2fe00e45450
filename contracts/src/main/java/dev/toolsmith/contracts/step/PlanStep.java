package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * A step of a planner's plan: an intent ({@code actionVerb}) with inputs. {@code caller} is the
 * planner identity the step runs as; policies and access are checked against it. A sender cannot choose
 * it: the capabilities manager sets it to the authenticated caller (the REST API key's name, or the signer
 * of the {@code plan-steps} record, {@link PlanStepSignature}), and the step id belongs to that caller.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanStep(
        String stepId,
        String planId,
        String actionVerb,
        String description,
        Map<String, StepInput> inputs,
        Map<String, String> outputs,
        String caller) {

    public PlanStep {
        inputs = inputs == null ? Map.of() : Map.copyOf(inputs);
        outputs = outputs == null ? Map.of() : Map.copyOf(outputs);
    }
}
