package dev.toolsmith.engineer.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;

/**
 * A build as the API shows it. The list carries the report (the UI shows it beside a tool); the detail
 * adds the plugin, the generated suite and what generation adjusted. The suite's verification secret is a
 * placeholder, never a real secret, and the policy's secrets are never shown.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BuildView(String id, String toolId, int version, String state, String failureReason, int attempts,
        OffsetDateTime createdAt, OffsetDateTime updatedAt, JsonNode report, JsonNode plugin, JsonNode suite,
        JsonNode notes) {
}
