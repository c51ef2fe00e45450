package dev.toolsmith.engineer.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.llm.LlmJsonAnswer;

/** Reads the JSON object an LLM was asked for ({@link LlmJsonAnswer} finds it in the answer). */
public final class AnswerJson {

    private AnswerJson() {
    }

    public static JsonNode object(String answer, ObjectMapper mapper) throws RejectedAnswerException {
        String text = LlmJsonAnswer.jsonPart(answer);
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
