package dev.toolsmith.contracts.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.toolsmith.contracts.tool.Risk;
import java.util.List;

/**
 * One ranked tool. {@code score} orders the list; {@code confidence} is the calibrated probability
 * that this tool is the right one (see docs/search.md), which the substitution threshold compares
 * against. {@code matchedOn} names the evidence: lexical fields and/or "semantic".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchHit(
        String toolId,
        String verb,
        String name,
        String description,
        double score,
        double confidence,
        List<String> matchedOn,
        Risk risk,
        int version) {

    public SearchHit {
        matchedOn = matchedOn == null ? List.of() : List.copyOf(matchedOn);
    }
}
