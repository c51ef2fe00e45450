package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;

/** What submitting a step led to. */
public record StepOutcome(Kind kind, StepResult result) {

    public enum Kind {
        /** The step ran now; its result was published on step-results. */
        RAN,
        /** The step had already run (a redelivery or resubmission): the stored result, nothing re-ran. */
        STORED,
        /** Another delivery of this step id holds the claim and has not finished; result is null. */
        PENDING,
        /**
         * The step id belongs to another caller: nothing ran and nothing of the owner's was read or written.
         * The result is a FAILED naming the conflict, stored nowhere (the Kafka door publishes it, REST answers 409).
         */
        CONFLICT
    }

    public static StepOutcome ran(StepResult result) {
        return new StepOutcome(Kind.RAN, result);
    }

    public static StepOutcome stored(StepResult result) {
        return new StepOutcome(Kind.STORED, result);
    }

    public static StepOutcome pending() {
        return new StepOutcome(Kind.PENDING, null);
    }

    /** {@code step} reuses a step id another caller sent first. The message names neither that caller nor its step. */
    public static StepOutcome conflict(PlanStep step) {
        return new StepOutcome(Kind.CONFLICT, StepFlows.failed(step, conflictMessage(step.stepId())));
    }

    public static String conflictMessage(String stepId) {
        return "step id '" + stepId + "' is already used by another caller: a step id belongs to the caller that"
                + " first sent it; send this step under a new step id";
    }
}
