package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Maps one tool input to the HTTP request. {@code name} is the input's name in the tool's input
 * schema; {@code wireName} is its name on the wire (they differ when two locations share a name).
 * {@code style}/{@code explode} follow OpenAPI serialisation rules (form, spaceDelimited,
 * pipeDelimited, deepObject, simple, label, matrix).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParameterBinding(
        String name, String wireName, ParameterLocation location, String style, Boolean explode, boolean required) {
}
