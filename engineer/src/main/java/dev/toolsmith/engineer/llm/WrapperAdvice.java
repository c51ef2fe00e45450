package dev.toolsmith.engineer.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the LLM suggests for a wrapper: a one-paragraph description for search and a verb. {@link #read}
 * validates an answer; it is never used unchecked.
 */
public record WrapperAdvice(String description, String verb) {

    public static final Pattern VERB = Pattern.compile("^[A-Z][A-Z0-9_]{2,63}$");
    static final int MIN_DESCRIPTION = 20;
    static final int MAX_DESCRIPTION = 1000;

    /**
     * The advice in {@code answer}: a JSON object with a {@code description} of 20..1000 characters that
     * names no URL or host outside {@code allowedHosts}, and a {@code verb} in VERB_CASE.
     */
    public static WrapperAdvice read(String answer, Set<String> allowedHosts, ObjectMapper mapper)
            throws RejectedAnswerException {
        JsonNode json = AnswerJson.object(answer, mapper);
        String description = AnswerJson.paragraph(json, "description", MIN_DESCRIPTION, MAX_DESCRIPTION);
        Set<String> foreign = ForeignHosts.in(description, allowedHosts);
        if (!foreign.isEmpty()) {
            throw new RejectedAnswerException("the description names " + String.join(", ", foreign)
                    + ", not a server of the approved spec");
        }
        JsonNode verb = json.get("verb");
        if (verb == null || !verb.isTextual() || !VERB.matcher(verb.asText()).matches()) {
            throw new RejectedAnswerException("'verb' " + (verb == null ? "is missing" : verb + " is not VERB_CASE")
                    + " (^[A-Z][A-Z0-9_]{2,63}$)");
        }
        return new WrapperAdvice(description, verb.asText());
    }
}
