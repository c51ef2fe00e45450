package dev.toolsmith.contracts.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A verb nothing could serve, published on {@code capability-gaps} keyed by the normalised verb so the
 * librarian's find-or-build can look for a tool among unapproved candidates.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CapabilityGap(
        String normalizedVerb,
        String actionVerb,
        String description,
        List<String> inputNames,
        String stepId,
        String planId,
        long timesSeen,
        List<SearchHit> candidates) {

    public CapabilityGap {
        inputNames = inputNames == null ? List.of() : List.copyOf(inputNames);
        candidates = candidates == null ? List.of() : List.copyOf(candidates);
    }
}
