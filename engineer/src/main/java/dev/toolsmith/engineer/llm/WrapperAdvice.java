package dev.toolsmith.engineer.llm;

import dev.langchain4j.model.output.structured.Description;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the LLM suggests for a wrapper: a one-paragraph description for search and a verb. The AI service
 * ({@link WrapperAdviceService}) reads the answer into this record (the {@link Description}s go into the
 * format instruction it sends); {@link #checked} holds it to Toolsmith's rules, and it is never used unchecked.
 */
public record WrapperAdvice(
        @Description("one paragraph of 20 to 1000 characters: what the operation does, what it needs and what it"
                + " returns, in plain words; no URLs or host names") String description,
        @Description("what the operation does in VERB_CASE, e.g. GET_EXCHANGE_RATES") String verb) {

    public static final Pattern VERB = Pattern.compile("^[A-Z][A-Z0-9_]{2,63}$");
    static final int MIN_DESCRIPTION = 20;
    static final int MAX_DESCRIPTION = 1000;

    /**
     * This advice made usable: a {@code description} of 20..1000 characters (whitespace collapsed to one
     * paragraph) that names no URL or host outside {@code allowedHosts}, and a {@code verb} in VERB_CASE.
     */
    public WrapperAdvice checked(Set<String> allowedHosts) throws RejectedAnswerException {
        String paragraph = AnswerChecks.paragraph(description, "description", MIN_DESCRIPTION, MAX_DESCRIPTION);
        Set<String> foreign = ForeignHosts.in(paragraph, allowedHosts);
        if (!foreign.isEmpty()) {
            throw new RejectedAnswerException("the description names " + String.join(", ", foreign)
                    + ", not a server of the approved spec");
        }
        if (verb == null || !VERB.matcher(verb).matches()) {
            throw new RejectedAnswerException("'verb' " + (verb == null ? "is missing" : "\"" + verb + "\" is not VERB_CASE")
                    + " (^[A-Z][A-Z0-9_]{2,63}$)");
        }
        return new WrapperAdvice(paragraph, verb);
    }
}
