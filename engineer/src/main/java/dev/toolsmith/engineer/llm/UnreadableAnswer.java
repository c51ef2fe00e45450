package dev.toolsmith.engineer.llm;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.PropertyBindingException;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.eventing.logging.ErrorSummary;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Why the library could not read an answer into the asked record, in the words of a build note. The library
 * ({@link OutputParsingException}) quotes the whole answer and its base64 in its message; the reason names the
 * problem instead: not JSON at all, or which field has the wrong shape.
 */
public final class UnreadableAnswer {

    private UnreadableAnswer() {
    }

    /** The {@link OutputParsingException} in {@code failure}'s causes, or null when it is another failure. */
    public static OutputParsingException in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutputParsingException unreadable) {
                return unreadable;
            }
        }
        return null;
    }

    public static String reason(OutputParsingException failure) {
        JacksonException jackson = jacksonCause(failure);
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
                return "'" + path + "' \"" + invalid.getValue() + "\" is not one of " + Arrays
                        .stream(type.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "));
            }
            return "'" + path + "' is not " + expected(type);
        }
        if (jackson != null) {
            return "the answer is not JSON: " + ErrorSummary.firstLine(jackson.getOriginalMessage());
        }
        return "the answer is not JSON";
    }

    private static JacksonException jacksonCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JacksonException jackson) {
                return jackson;
            }
        }
        return null;
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
        if (type == String.class) {
            return "a string";
        }
        if (type != null && type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", "));
        }
        return type == null ? "of the asked type" : "a " + type.getSimpleName();
    }
}
