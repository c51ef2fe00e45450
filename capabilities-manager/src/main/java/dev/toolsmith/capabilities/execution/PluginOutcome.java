package dev.toolsmith.capabilities.execution;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What running a plugin gave: outputs, a failure, or a refusal by policy. */
public sealed interface PluginOutcome {

    record Succeeded(ObjectNode outputs) implements PluginOutcome {
    }

    /** The plugin ran (or tried to) and did not produce outputs; {@code error} tells the planner why. */
    record Failed(String error) implements PluginOutcome {
    }

    /** A usage policy refused the call before it was made (caller, rate, quota, budget). */
    record Denied(String reason) implements PluginOutcome {
    }
}
