package dev.toolsmith.contracts.build;

/** Whether a registered plugin may serve steps and appear in search. */
public enum PluginStatus {
    ENABLED,
    DEGRADED,
    DISABLED
}
