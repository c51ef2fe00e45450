package dev.toolsmith.contracts.llm;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSON part of an LLM's answer. Asked for JSON, models often wrap it in a Markdown code fence and a
 * sentence or two; the engineer (wrapper advice, drafts) and the capabilities manager (decompositions)
 * read answers through this one class, so every LLM answer is read the same way.
 */
public final class LlmJsonAnswer {

    /** A fenced block: three backticks, an optional language tag, the body, three backticks. */
    private static final Pattern FENCE = Pattern.compile("```[\\w+-]*[ \\t]*\\R?(.*?)```", Pattern.DOTALL);

    private LlmJsonAnswer() {
    }

    /**
     * The body of the first fenced block when there is one (so braces in the prose around it are ignored),
     * then, within it, the outermost JSON object or array: from the first {@code {} or {@code [} to the last
     * {@code }} or {@code ]}. Text with neither comes back trimmed, so the caller's parse error shows it;
     * null is the empty string.
     */
    public static String jsonPart(String answer) {
        if (answer == null) {
            return "";
        }
        String text = answer.strip();
        Matcher fence = FENCE.matcher(text);
        if (fence.find()) {
            text = fence.group(1).strip();
        }
        int objectStart = text.indexOf('{');
        int arrayStart = text.indexOf('[');
        int start = objectStart < 0 ? arrayStart : arrayStart < 0 ? objectStart : Math.min(objectStart, arrayStart);
        int end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
        return start >= 0 && end > start ? text.substring(start, end + 1) : text;
    }
}
