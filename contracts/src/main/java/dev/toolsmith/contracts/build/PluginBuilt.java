package dev.toolsmith.contracts.build;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.airlock.ApprovalSeal;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.tool.ToolManifest;

/**
 * The engineer's verdict on an approved tool, on {@code plugin-built} keyed by tool id. On success
 * {@code plugin} is the wrapper manifest with its complete binding and health probe, ready to register
 * and index; on failure {@code failureReason} and the report say what to fix. {@code approval} is the
 * seal of the approval it was built from, copied unchanged: without a valid one nothing registers it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PluginBuilt(
        String toolId,
        int version,
        boolean succeeded,
        ToolManifest plugin,
        UsagePolicy policy,
        VerificationReport report,
        String failureReason,
        ApprovalSeal approval) {
}
