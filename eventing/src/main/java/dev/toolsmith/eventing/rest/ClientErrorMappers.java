package dev.toolsmith.eventing.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.toolsmith.contracts.event.ContractViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.stream.Collectors;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Maps a client's mistakes to 4xx answers that name the problem, so bad input never becomes a 500.
 */
public class ClientErrorMappers {

    @ServerExceptionMapper
    public Response contractViolation(ContractViolation violation) {
        return json(400, new ApiError(400, violation.getMessage(), violation.pointer()));
    }

    @ServerExceptionMapper
    public Response invalidJson(JsonProcessingException e) {
        return json(400, ApiError.of(400, "not valid JSON: " + JsonProblems.withoutJavaNames(e.getOriginalMessage())));
    }

    /**
     * JSON of the wrong shape for the request (an array for an object, text for a list). Quarkus maps this
     * one itself, to a bare 400 without a body; here it names the field and what it expects, in JSON's words
     * rather than the Java class it is bound to.
     */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        String pointer = pointer(e);
        return json(400, new ApiError(400, "not valid JSON for this request" + (pointer == null ? "" : " at " + pointer)
                + ": " + JsonProblems.describe(e), pointer));
    }

    /** A value the bound record refused when built (its constructor's check), named by its field. */
    @ServerExceptionMapper
    public Response refusedValue(ValueInstantiationException e) {
        String pointer = pointer(e);
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return json(400, new ApiError(400, "not valid JSON for this request" + (pointer == null ? "" : " at " + pointer)
                + ": " + JsonProblems.withoutJavaNames(cause.getMessage()), pointer));
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        String problems = e.getConstraintViolations().stream()
                .map(v -> lastNode(v.getPropertyPath().toString()) + " " + v.getMessage())
                .sorted().collect(Collectors.joining("; "));
        return json(400, ApiError.of(400, problems));
    }

    @ServerExceptionMapper
    public Response illegalArgument(IllegalArgumentException e) {
        return json(400, ApiError.of(400, e.getMessage()));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        if (e.getResponse().hasEntity()) {
            return e.getResponse(); // already says what is wrong (NamedParamConverters, JsonBodyGuard)
        }
        // Quarkus' JSON body reader wraps a parse error in a bare 400: say what the parser found instead.
        if (e.getCause() instanceof MismatchedInputException mismatched) {
            return mismatchedInput(mismatched);
        }
        if (e.getCause() instanceof JsonProcessingException invalid) {
            return invalidJson(invalid);
        }
        int status = e.getResponse().getStatus();
        String message = e.getMessage() == null ? Response.Status.fromStatusCode(status).getReasonPhrase() : e.getMessage();
        return json(status, ApiError.of(status, message));
    }

    /** The JSON Pointer of the field Jackson stopped at; null at the document's root. */
    private static String pointer(JsonMappingException e) {
        StringBuilder pointer = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            pointer.append('/');
            if (reference.getFieldName() != null) {
                pointer.append(reference.getFieldName().replace("~", "~0").replace("/", "~1"));
            } else {
                pointer.append(Math.max(reference.getIndex(), 0));
            }
        }
        return pointer.isEmpty() ? null : pointer.toString();
    }

    private static String lastNode(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }

    private static Response json(int status, ApiError error) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(error).build();
    }
}
