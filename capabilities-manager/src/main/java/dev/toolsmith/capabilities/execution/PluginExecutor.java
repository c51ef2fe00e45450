package dev.toolsmith.capabilities.execution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import io.smallrye.mutiny.Uni;

/**
 * Runs the plugins of one {@link PluginType}. Implementations are CDI beans; {@link PluginExecutors}
 * picks the one for a plugin's type. Inputs have already passed the plugin's input schema; outputs are
 * checked against its output schema by the caller.
 */
public interface PluginExecutor {

    PluginType type();

    /**
     * True when running a plugin changes nothing outside this process. Such plugins run inside the
     * step's one transaction (claim, run, record); others are claimed in a committed transaction first,
     * so a crash while they run can never lead to running them a second time.
     */
    boolean sideEffectFree();

    /** Never fails the Uni for a plugin's own failure: that is {@link PluginOutcome.Failed}. */
    Uni<PluginOutcome> execute(Plugin plugin, ObjectNode inputs, ExecutionContext context);
}
