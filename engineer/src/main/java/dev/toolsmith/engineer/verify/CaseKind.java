package dev.toolsmith.engineer.verify;

/** What a generated verification case exercises. */
public enum CaseKind {
    /** Inputs from the spec's examples and defaults. */
    EXAMPLE,
    /** Only the required inputs, generated from the input schema where the spec gives no example. */
    REQUIRED_INPUTS,
    /** Every input, optional ones included, so every binding of the plugin is exercised. */
    ALL_INPUTS,
    /** An input that breaks the schema: the executor must refuse it before sending anything. */
    INVALID_INPUT,
    /** The health probe's request. */
    HEALTH_PROBE
}
