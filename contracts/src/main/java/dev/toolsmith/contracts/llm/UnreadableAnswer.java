package dev.toolsmith.contracts.llm;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Why an LLM's answer could not be read into the record an AI service asked for, in words fit for a build note, a
 * planner and the model's second try. The engineer, the capabilities manager and the planner agent read every answer
 * through LangChain4j's structured output; when Jackson cannot bind it, the library's exception quotes the whole answer
 * (and its base64), so this names the problem instead: not JSON at all, not an object, or which field has which wrong
 * shape. Kept free of LangChain4j: it reads the Jackson failure among the causes.
 */
public final class UnreadableAnswer {

    /** Jackson names Java types in full; the reader needs only their simple names. */
    private static final Pattern JAVA_PACKAGE = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+(?=[A-Z])");

    private UnreadableAnswer() {
    }

    /** The first throwable of {@code type} among {@code failure} and its causes. */
    public static <T extends Throwable> Optional<T> cause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
        }
        return Optional.empty();
    }

    /** The problem with the answer whose reading failed with {@code parsingFailure}. */
    public static String reason(Throwable parsingFailure) {
        JacksonException jackson = cause(parsingFailure, JacksonException.class).orElse(null);
        if (jackson instanceof PropertyBindingException unknown) {
            return "the answer has a field that was not asked for: '" + path(unknown) + "'";
        }
        if (jackson instanceof MismatchedInputException mismatch) {
            String path = path(mismatch);
            if (path.isEmpty()) {
                return "the answer is not a JSON object";
            }
            Class<?> type = mismatch.getTargetType();
            if (mismatch instanceof InvalidFormatException invalid && type != null && type.isEnum()) {
                return "'" + path + "' \"" + invalid.getValue() + "\" is not " + expected(type);
            }
            return "'" + path + "' is not " + expected(type);
        }
        if (jackson != null) {
            return "the answer is not JSON: " + plain(jackson.getOriginalMessage());
        }
        return "the answer is not JSON";
    }

    /** {@code inputSchema}, {@code steps[2].id}: where in the answer the problem is. */
    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of the asked type";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", "));
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        if (java.util.Map.class.isAssignableFrom(type) || type.isRecord()) {
            return "an object";
        }
        return "a " + type.getSimpleName();
    }

    /** The first line of Jackson's message, without package names (an answer's text stays as Jackson quotes it). */
    private static String plain(String message) {
        String text = message == null ? "" : JAVA_PACKAGE.matcher(message).replaceAll("");
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }
}
