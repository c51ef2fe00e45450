package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.step.StepResult;

/** A row of step_execution: the result is null while the step is in progress. */
public record StoredStep(String stepId, String planId, String actionVerb, boolean done, StepResult result) {
}
