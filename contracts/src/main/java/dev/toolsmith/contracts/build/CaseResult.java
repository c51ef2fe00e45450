package dev.toolsmith.contracts.build;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One case of a wrapper's generated verification suite, and how it went. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CaseResult(String name, String kind, boolean passed, String detail) {
}
