package dev.toolsmith.capabilities.execution;

/** Who a plugin runs for: policies and the sandbox account calls to the step and its caller. */
public record ExecutionContext(String stepId, String planId, String caller) {
}
