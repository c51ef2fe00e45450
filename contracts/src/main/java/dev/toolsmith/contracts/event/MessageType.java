package dev.toolsmith.contracts.event;

import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.Arrays;
import java.util.Optional;

/**
 * Each contract: its Java type, its JSON Schema on the classpath and its CloudEvents {@code type}.
 */
public enum MessageType {
    PLAN_STEP(PlanStep.class, "plan-step"),
    STEP_RESULT(StepResult.class, "step-result"),
    TOOL_MANIFEST(ToolManifest.class, "tool-manifest"),
    SEARCH_REQUEST(SearchRequest.class, "search-request"),
    SEARCH_REPLY(SearchReply.class, "search-reply"),
    CAPABILITY_GAP(CapabilityGap.class, "capability-gap"),
    USAGE_POLICY(UsagePolicy.class, "usage-policy"),
    TOOL_APPROVED(ToolApproved.class, "tool-approved"),
    PLUGIN_BUILT(PluginBuilt.class, "plugin-built"),
    PLUGIN_STATUS_CHANGED(PluginStatusChanged.class, "plugin-status-changed"),
    NOTIFICATION(Notification.class, "notification"),
    CATALOG_ENTRY(CatalogEntry.class, "catalog-entry");

    private static final String TYPE_PREFIX = "dev.toolsmith.";

    private final Class<?> javaType;
    private final String name;

    MessageType(Class<?> javaType, String name) {
        this.javaType = javaType;
        this.name = name;
    }

    public Class<?> javaType() {
        return javaType;
    }

    /** The classpath resource of this contract's JSON Schema. */
    public String schemaResource() {
        return "schemas/" + name + ".schema.json";
    }

    /** The CloudEvents {@code type} attribute, e.g. {@code dev.toolsmith.plan-step}. */
    public String cloudEventType() {
        return TYPE_PREFIX + name;
    }

    public static Optional<MessageType> byCloudEventType(String type) {
        return Arrays.stream(values()).filter(t -> t.cloudEventType().equals(type)).findFirst();
    }

    public static MessageType of(Class<?> javaType) {
        return Arrays.stream(values()).filter(t -> t.javaType.equals(javaType)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(javaType.getName() + " is not a contract type"));
    }
}
