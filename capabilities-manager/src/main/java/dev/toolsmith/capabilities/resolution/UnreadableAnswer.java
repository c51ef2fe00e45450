package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.eventing.logging.ErrorSummary;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Says why the AI service could not read an answer into a {@link ProposedPlan}, in words fit for the
 * planner and for the model's second try. The library's own message quotes the whole answer (and its
 * base64), so only Jackson's reason and where in the JSON it arose are kept.
 */
final class UnreadableAnswer {

    private static final Pattern JAVA_PACKAGE = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+(?=[A-Z])");

    private UnreadableAnswer() {
    }

    /** The {@link OutputParsingException} in {@code failure}'s causes, if the failure is one. */
    static Optional<OutputParsingException> in(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof OutputParsingException parsing) {
                return Optional.of(parsing);
            }
        }
        return Optional.empty();
    }

    static String problem(OutputParsingException failure) {
        return "the answer is not valid JSON of the form {\"steps\": [...]}" + reason(failure);
    }

    private static String reason(Throwable failure) {
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
                return " (at " + location(mapping) + "): " + plain(mapping.getOriginalMessage());
            }
            if (cause instanceof JsonProcessingException json) {
                return ": " + plain(json.getOriginalMessage());
            }
        }
        return "";
    }

    /** Jackson names Java types in full; the model and the planner need only their simple names. */
    private static String plain(String message) {
        return ErrorSummary.firstLine(JAVA_PACKAGE.matcher(message == null ? "" : message).replaceAll(""));
    }

    /** {@code steps[0].actionVerb} rather than Jackson's {@code ProposedPlan["steps"]->...} chain. */
    private static String location(JsonMappingException mapping) {
        return mapping.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
    }
}
