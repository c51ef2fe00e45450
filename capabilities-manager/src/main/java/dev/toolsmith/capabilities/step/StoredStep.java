package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.step.StepResult;

/**
 * A row of step_execution: the result is null while the step is in progress. {@code caller} is the step's
 * owner, the authenticated caller that first sent its step id (null only for rows of steps that named no
 * caller, which nobody owns).
 */
public record StoredStep(String stepId, String planId, String actionVerb, String caller, boolean done,
        StepResult result) {

    /** Whether a step id stored for {@code owner} is {@code caller}'s: nobody owns a step without a caller. */
    public static boolean belongsTo(String owner, String caller) {
        return owner != null && owner.equals(caller);
    }

    public boolean ownedBy(String caller) {
        return belongsTo(this.caller, caller);
    }
}
