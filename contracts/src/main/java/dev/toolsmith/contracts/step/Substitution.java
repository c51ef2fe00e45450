package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * How an unknown verb was matched to a tool: the verb the planner asked for, the confidence of the
 * match, whether it came from a learned alias, and which candidate input fed each tool parameter.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Substitution(String fromVerb, double confidence, boolean viaAlias, Map<String, String> inputMapping) {

    public Substitution {
        inputMapping = inputMapping == null ? Map.of() : Map.copyOf(inputMapping);
    }
}
