package dev.toolsmith.engineer.llm;

/** Checks shared by the typed answers of the LLM (the library has parsed them; these are Toolsmith's rules). */
public final class AnswerChecks {

    private AnswerChecks() {
    }

    /**
     * A required text field of {@code min..max} characters, trimmed and with its whitespace collapsed to single
     * spaces (one paragraph).
     */
    public static String paragraph(String value, String field, int min, int max) throws RejectedAnswerException {
        if (value == null) {
            throw new RejectedAnswerException("'" + field + "' is missing or not a string");
        }
        String text = value.strip().replaceAll("\\s+", " ");
        if (text.length() < min || text.length() > max) {
            throw new RejectedAnswerException("'" + field + "' has " + text.length() + " characters; " + min + " to "
                    + max + " are allowed");
        }
        return text;
    }
}
