package dev.toolsmith.capabilities.registry;

/** How a plugin runs; chooses its {@link dev.toolsmith.capabilities.execution.PluginExecutor}. */
public enum PluginType {
    /** Runs in-process, touches no network (JSON, text, arithmetic, time). */
    INTERNAL,
    /** An approved external API, called through the sandboxed HTTP executor under its usage policy. */
    WRAPPED_HTTP
}
