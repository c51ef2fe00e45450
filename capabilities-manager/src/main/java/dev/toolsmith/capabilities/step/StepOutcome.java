package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.step.StepResult;

/** What submitting a step led to. */
public record StepOutcome(Kind kind, StepResult result) {

    public enum Kind {
        /** The step ran now; its result was published on step-results. */
        RAN,
        /** The step had already run (a redelivery or resubmission): the stored result, nothing re-ran. */
        STORED,
        /** Another delivery of this step id holds the claim and has not finished; result is null. */
        PENDING
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
}
