package dev.toolsmith.contracts.step;

/** The outcome of a plan step, as the planner sees it. */
public enum StepStatus {
    /** The registered plugin for the verb ran and its output validated. */
    SUCCEEDED,
    /** The step could not run or its plugin failed; {@code error} says why. */
    FAILED,
    /** An unknown verb was served by a confidently matching tool. */
    SUBSTITUTED,
    /** A matching tool was found but it writes remotely or destroys: the planner must confirm. */
    PROPOSED,
    /** The step was broken down into a plan of registered verbs. */
    DECOMPOSED,
    /** Nothing can serve the step; the top candidates are attached and a capability gap raised. */
    UNRESOLVED,
    /** Policy refused the call: caller not allowed, rate, quota or budget exhausted. */
    DENIED
}
