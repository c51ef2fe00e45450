package dev.toolsmith.eventing.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses, with a 400 naming the parameter, a path or query parameter whose percent-encoding is not UTF-8
 * ({@link Utf8Text}) or that holds a control character ({@link ControlCharacters}). It runs after the request
 * is matched to its endpoint, so a path parameter is named as the endpoint declares it ({@code /tools/%00} →
 * "path parameter id"), and before any parameter reaches the endpoint or the database.
 */
public class ParameterTextFilter {

    @ServerRequestFilter
    public Response refuseBadParameterText(ContainerRequestContext request) {
        URI sent = request.getUriInfo().getRequestUri();
        String problem = pathEncodingProblem(sent.getRawPath(), request.getUriInfo().getPathParameters(true));
        if (problem == null) {
            problem = queryEncodingProblem(sent.getRawQuery());
        }
        if (problem == null) {
            problem = problemIn("path parameter", request.getUriInfo().getPathParameters(true));
        }
        if (problem == null) {
            problem = problemIn("query parameter", request.getUriInfo().getQueryParameters(true));
        }
        if (problem == null) {
            return null;
        }
        return Response.status(400).type(MediaType.APPLICATION_JSON_TYPE).entity(ApiError.of(400, problem)).build();
    }

    /*
     * The encoding is checked on the URI as sent: decoded, a malformed sequence is already U+FFFD (and the
     * framework offers no undecoded parameters), so the parameter is named by where that U+FFFD landed.
     */
    private static String pathEncodingProblem(String rawPath, MultivaluedMap<String, String> decoded) {
        if (rawPath == null || Utf8Text.percentDecode(rawPath).isPresent()) {
            return null;
        }
        for (Map.Entry<String, List<String>> parameter : decoded.entrySet()) {
            if (parameter.getValue().stream().anyMatch(value -> value.indexOf('\uFFFD') >= 0)) {
                return "path parameter " + parameter.getKey() + ": is not valid UTF-8 once percent-decoded";
            }
        }
        return "the path is not valid UTF-8 once percent-decoded";
    }

    private static String queryEncodingProblem(String rawQuery) {
        if (rawQuery == null || Utf8Text.percentDecode(rawQuery).isPresent()) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            Optional<String> name = Utf8Text.percentDecode(equals < 0 ? pair : pair.substring(0, equals));
            if (name.isEmpty()) {
                return "a query parameter name is not valid UTF-8 once percent-decoded";
            }
            if (equals >= 0 && Utf8Text.percentDecode(pair.substring(equals + 1)).isEmpty()) {
                return "query parameter " + name.get() + ": is not valid UTF-8 once percent-decoded";
            }
        }
        return "the query is not valid UTF-8 once percent-decoded";
    }

    private static String problemIn(String kind, MultivaluedMap<String, String> parameters) {
        for (Map.Entry<String, List<String>> parameter : parameters.entrySet()) {
            OptionalInt inName = ControlCharacters.firstIn(parameter.getKey());
            if (inName.isPresent()) {
                return "a " + kind + " name contains the control character " + ControlCharacters.codePoint(inName.getAsInt())
                        + ", which is not allowed";
            }
            for (String value : parameter.getValue()) {
                OptionalInt control = ControlCharacters.firstIn(value);
                if (control.isPresent()) {
                    return kind + " " + parameter.getKey() + ": contains the control character "
                            + ControlCharacters.codePoint(control.getAsInt()) + ", which is not allowed";
                }
            }
        }
        return null;
    }
}
