package dev.toolsmith.contracts.airlock;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.time.Instant;

/**
 * An admin approved an external tool: published on {@code tool-approved} keyed by tool id for the
 * engineer. {@code operation} is the dereferenced OpenAPI operation (with its examples), from which the
 * engineer generates the verification suite; it is null for tools that did not come from OpenAPI.
 * {@code approval} is the librarian's signed seal of this approval, which the build must carry back.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ToolApproved(
        String toolId,
        int version,
        ToolManifest manifest,
        UsagePolicy policy,
        JsonNode operation,
        String sourceId,
        String approvedBy,
        Instant approvedAt,
        ApprovalSeal approval) {
}
