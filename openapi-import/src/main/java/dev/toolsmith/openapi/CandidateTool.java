package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;

/**
 * One operation of a document turned into a tool that waits for review.
 *
 * @param operationKey the operation's identity within its document, {@code "GET /pets/{petId}"}; with the
 *     source it identifies the candidate across scans
 * @param operationId the document's operationId, if any
 * @param manifest the candidate manifest, validated against the contracts' schema, with its content hash
 * @param operation the dereferenced OpenAPI operation (parameters merged from its path, examples kept), from
 *     which the engineer generates the verification suite; {@code x-toolsmith-method}/{@code -path} say where
 * @param warnings what the conversion had to work around (dropped invalid patterns, truncated recursion…)
 */
public record CandidateTool(String operationKey, String operationId, ToolManifest manifest, JsonNode operation,
        List<String> warnings) {

    public CandidateTool {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }
}
