package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What the stub answers for a case and where it came from ({@code "spec example"}, {@code "generated"}).
 * The body must validate against the plugin's output schema.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StubResponse(int status, JsonNode body, String origin) {
}
