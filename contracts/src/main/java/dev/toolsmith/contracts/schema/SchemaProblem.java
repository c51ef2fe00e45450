package dev.toolsmith.contracts.schema;

import com.networknt.schema.ValidationMessage;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * The one way every service reports a JSON Schema failure: the first problem, the field at fault as a JSON
 * pointer and what is wrong with it, e.g. {@code /amount: is required} or
 * {@code /value: string found, number expected (and 2 more problems)}. Callers add their context ("input",
 * "field", "response does not match the output schema at").
 *
 * @param pointer the field at fault (RFC 6901; "" is the whole document); a missing required field is
 *                pointed at itself, not at the object that lacks it
 * @param message what is wrong, without the validator's location prefix
 * @param others  how many further problems the document has
 */
public record SchemaProblem(String pointer, String message, int others) {

    /** First by field, then by message: the same document always reports the same problem. */
    private static final Comparator<SchemaProblem> ORDER = Comparator.comparing(SchemaProblem::pointer)
            .thenComparing(SchemaProblem::message);

    /** The problem to report of {@code problems} (networknt's validation messages), if there is one. */
    public static Optional<SchemaProblem> firstOf(Collection<ValidationMessage> problems) {
        if (problems == null || problems.isEmpty()) {
            return Optional.empty();
        }
        int others = problems.size() - 1;
        return problems.stream().map(problem -> of(problem, others)).min(ORDER);
    }

    private static SchemaProblem of(ValidationMessage problem, int others) {
        String location = problem.getInstanceLocation().toString();
        if ("required".equals(problem.getType()) && problem.getProperty() != null) {
            return new SchemaProblem(location + "/" + escape(problem.getProperty()), "is required", others);
        }
        String text = problem.getMessage();
        // networknt starts its message with the instance location; say the location once, in our words
        if (!location.isEmpty() && text.startsWith(location + ": ")) {
            text = text.substring(location.length() + 2);
        } else if (text.startsWith(": ")) {
            text = text.substring(2);
        }
        return new SchemaProblem(location, text, others);
    }

    /** A property name as one JSON-pointer token ({@code ~} and {@code /} escaped, RFC 6901). */
    private static String escape(String property) {
        return property.replace("~", "~0").replace("/", "~1");
    }

    /** {@code "<field>: <message>"}, with how many more problems there are when there are any. */
    public String describe() {
        String field = pointer.isEmpty() ? "(the whole document)" : pointer;
        String more = others == 0 ? "" : " (and " + others + " more problem" + (others > 1 ? "s" : "") + ")";
        return field + ": " + message + more;
    }
}
