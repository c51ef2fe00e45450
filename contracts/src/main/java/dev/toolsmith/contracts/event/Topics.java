package dev.toolsmith.contracts.event;

/** Every Kafka topic of the platform, in one place. Keys are described in docs/events.md. */
public final class Topics {

    /** Plan steps from planners; key: plan id. */
    public static final String PLAN_STEPS = "plan-steps";
    /** Step outcomes for planners; key: plan id. */
    public static final String STEP_RESULTS = "step-results";
    /** Novel-verb searches; key: step id. */
    public static final String TOOL_SEARCH_REQUESTS = "tool-search-requests";
    /** Answers to novel-verb searches; key: step id. */
    public static final String TOOL_SEARCH_REPLIES = "tool-search-replies";
    /** Verbs nothing could serve; key: normalised verb. */
    public static final String CAPABILITY_GAPS = "capability-gaps";
    /** Tools an admin approved; key: tool id. */
    public static final String TOOL_APPROVED = "tool-approved";
    /** The engineer's built (or failed) wrappers; key: tool id. */
    public static final String PLUGIN_BUILT = "plugin-built";
    /**
     * The capabilities manager's own internal plugins, announced for the catalog; key: tool id. Kept apart
     * from {@code plugin-built}, which only the engineer may write, so no other writer can pose as a build.
     */
    public static final String INTERNAL_PLUGINS = "internal-plugins";
    /** Compacted catalog; key: tool id; a tombstone deletes. */
    public static final String TOOL_CATALOG = "tool-catalog";
    /** Plugin availability; key: tool id. */
    public static final String PLUGIN_STATUS = "plugin-status";
    /** Admin alerts; key: notification id. */
    public static final String NOTIFICATIONS = "notifications";

    /** Messages a consumer could not process go to {@code <topic>.dlq} with the reason in a header. */
    public static String deadLetter(String topic) {
        return topic + ".dlq";
    }

    private Topics() {
    }
}
