package dev.toolsmith.capabilities.execution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.plugins.InternalPlugin;
import dev.toolsmith.capabilities.plugins.PluginFailure;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/** Runs internal plugins in the calling thread: they are pure, fast and touch no network. */
@ApplicationScoped
public class InternalPluginExecutor implements PluginExecutor {

    private static final Logger LOG = Logger.getLogger(InternalPluginExecutor.class);

    private final Map<String, InternalPlugin> byToolId = new HashMap<>();

    public InternalPluginExecutor(Instance<InternalPlugin> plugins) {
        for (InternalPlugin plugin : plugins) {
            byToolId.put(plugin.manifest().id(), plugin);
        }
    }

    public List<InternalPlugin> plugins() {
        return List.copyOf(byToolId.values());
    }

    @Override
    public PluginType type() {
        return PluginType.INTERNAL;
    }

    @Override
    public boolean sideEffectFree() {
        return true;
    }

    @Override
    public Uni<PluginOutcome> execute(Plugin plugin, ObjectNode inputs, ExecutionContext context) {
        return Uni.createFrom().item(() -> run(plugin, inputs));
    }

    PluginOutcome run(Plugin plugin, ObjectNode inputs) {
        InternalPlugin code = byToolId.get(plugin.toolId());
        if (code == null) {
            return new PluginOutcome.Failed("internal plugin " + plugin.toolId()
                    + " is registered but not part of this build");
        }
        try {
            return new PluginOutcome.Succeeded(code.execute(inputs));
        } catch (PluginFailure failure) {
            return new PluginOutcome.Failed(failure.getMessage());
        } catch (RuntimeException bug) {
            LOG.errorf(bug, "internal plugin %s failed unexpectedly", plugin.toolId());
            return new PluginOutcome.Failed("internal plugin " + plugin.toolId() + " failed: " + bug);
        }
    }
}
