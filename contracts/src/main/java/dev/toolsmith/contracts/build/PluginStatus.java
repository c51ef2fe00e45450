package dev.toolsmith.contracts.build;

/** Whether a registered plugin may serve steps and appear in search. */
public enum PluginStatus {
    ENABLED,
    DEGRADED,
    DISABLED,
    /**
     * An admin retired the tool from the catalog: unlike DISABLED it will not come back, so the registry
     * forgets it and its verb is free for another approved tool.
     */
    RETIRED
}
