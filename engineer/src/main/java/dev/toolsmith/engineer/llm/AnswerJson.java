package dev.toolsmith.engineer.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the JSON object an LLM was asked for; models often wrap it in a Markdown code fence. */
public final class AnswerJson {

    private AnswerJson() {
    }

    public static JsonNode object(String answer, ObjectMapper mapper) throws RejectedAnswerException {
        String text = answer == null ? "" : answer.strip();
        if (text.startsWith("```")) {
            int firstLineEnd = text.indexOf('\n');
            int closing = text.lastIndexOf("```");
            if (firstLineEnd > 0 && closing > firstLineEnd) {
                text = text.substring(firstLineEnd + 1, closing).strip();
            }
        }
        JsonNode json;
        try {
            json = mapper.readTree(text);
        } catch (Exception e) {
            throw new RejectedAnswerException("the answer is not JSON: " + abbreviate(text));
        }
        if (json == null || !json.isObject()) {
            throw new RejectedAnswerException("the answer is not a JSON object: " + abbreviate(text));
        }
        return json;
    }

    /** A required string field, trimmed and with its whitespace collapsed to single spaces (one paragraph). */
    public static String paragraph(JsonNode json, String field, int min, int max) throws RejectedAnswerException {
        JsonNode value = json.get(field);
        if (value == null || !value.isTextual()) {
            throw new RejectedAnswerException("'" + field + "' is missing or not a string");
        }
        String text = value.asText().strip().replaceAll("\\s+", " ");
        if (text.length() < min || text.length() > max) {
            throw new RejectedAnswerException("'" + field + "' has " + text.length() + " characters; " + min + " to "
                    + max + " are allowed");
        }
        return text;
    }

    static String abbreviate(String text) {
        return text.length() <= 120 ? text : text.substring(0, 120) + "…";
    }
}
