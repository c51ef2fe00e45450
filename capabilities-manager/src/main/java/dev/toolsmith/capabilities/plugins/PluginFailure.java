package dev.toolsmith.capabilities.plugins;

/** A plugin could not do what the inputs asked; the message tells the planner what to change. */
public class PluginFailure extends RuntimeException {

    public PluginFailure(String message) {
        super(message);
    }

    public PluginFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
