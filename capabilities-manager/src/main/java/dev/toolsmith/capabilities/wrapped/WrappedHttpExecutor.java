package dev.toolsmith.capabilities.wrapped;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.execution.ExecutionContext;
import dev.toolsmith.capabilities.execution.PluginExecutor;
import dev.toolsmith.capabilities.execution.PluginOutcome;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Runs wrapped HTTP plugins through {@link GuardedCalls}: the plugin's usage policy is enforced before
 * every call (caller, rate, quota, budget), then the shared sandboxed executor of {@code sandbox-http}
 * makes the call within the approved hosts, timeouts and size cap, with the policy's secrets decrypted
 * only for the call (docs/policies-and-health.md).
 */
@ApplicationScoped
public class WrappedHttpExecutor implements PluginExecutor {

    private final GuardedCalls calls;

    public WrappedHttpExecutor(GuardedCalls calls) {
        this.calls = calls;
    }

    @Override
    public PluginType type() {
        return PluginType.WRAPPED_HTTP;
    }

    @Override
    public boolean sideEffectFree() {
        return false; // a remote API may act on the world
    }

    @Override
    public Uni<PluginOutcome> execute(Plugin plugin, ObjectNode inputs, ExecutionContext context) {
        return calls.execute(plugin, inputs, context);
    }
}
