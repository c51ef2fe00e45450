package dev.toolsmith.librarian.airlock.draft;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The body of {@code POST /tools/pending/drafts}, as the engineer's find-or-build sends it: the gap
 * (normalised verb, the planner's verb, description and input names) and the tool manifest its LLM
 * drafted for it. The manifest is read as JSON here and checked by {@link DraftIntake}.
 */
public record DraftRequest(String normalizedVerb, String actionVerb, String description, List<String> inputNames,
        JsonNode manifest) {
}
