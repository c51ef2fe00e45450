package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * A step of a planner's plan: an intent ({@code actionVerb}) with inputs. {@code caller} is the
 * planner identity the step runs as; policies and access are checked against it. A sender cannot choose
 * it: the capabilities manager sets it to the authenticated caller (the REST API key's name, or the signer
 * of the {@code plan-steps} record, {@link PlanStepSignature}), and the step id belongs to that caller.
 * {@code toolId}, optional, names the tool the planner chose for a verb no tool registers (one of a PROPOSED or
 * UNRESOLVED result's {@code choices}): it runs that tool, and the verb is learned as its alias.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PlanStep(
        String stepId,
        String planId,
        String actionVerb,
        String description,
        Map<String, StepInput> inputs,
        Map<String, String> outputs,
        String caller,
        String toolId) {

    public PlanStep {
        inputs = inputs == null ? Map.of() : Map.copyOf(inputs);
        outputs = outputs == null ? Map.of() : Map.copyOf(outputs);
    }

    /** A step that names no chosen tool: its verb decides. */
    public PlanStep(String stepId, String planId, String actionVerb, String description, Map<String, StepInput> inputs,
            Map<String, String> outputs, String caller) {
        this(stepId, planId, actionVerb, description, inputs, outputs, caller, null);
    }

    /** The same step run as {@code runAs}. */
    public PlanStep as(String runAs) {
        return new PlanStep(stepId, planId, actionVerb, description, inputs, outputs, runAs, toolId);
    }
}
