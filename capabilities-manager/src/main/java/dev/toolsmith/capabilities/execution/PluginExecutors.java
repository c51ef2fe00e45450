package dev.toolsmith.capabilities.execution;

import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.EnumMap;
import java.util.Map;

/** Chooses the executor for a plugin by its type; start-up fails if a type has none or two. */
@ApplicationScoped
public class PluginExecutors {

    private final Map<PluginType, PluginExecutor> byType = new EnumMap<>(PluginType.class);

    public PluginExecutors(Instance<PluginExecutor> executors) {
        for (PluginExecutor executor : executors) {
            PluginExecutor previous = byType.put(executor.type(), executor);
            if (previous != null) {
                throw new IllegalStateException("two executors for " + executor.type() + ": "
                        + previous.getClass().getName() + " and " + executor.getClass().getName());
            }
        }
        for (PluginType type : PluginType.values()) {
            if (!byType.containsKey(type)) {
                throw new IllegalStateException("no PluginExecutor bean for plugin type " + type);
            }
        }
    }

    public PluginExecutor forPlugin(Plugin plugin) {
        return byType.get(plugin.type());
    }
}
