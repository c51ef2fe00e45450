package dev.toolsmith.eventing.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses, with a 400 naming the parameter, a path or query parameter that holds a control character
 * ({@link ControlCharacters}). It runs after the request is matched to its endpoint, so a path parameter is
 * named as the endpoint declares it ({@code /tools/%00} → "path parameter id"), and before any parameter
 * reaches the endpoint or the database.
 */
public class ControlCharacterFilter {

    @ServerRequestFilter
    public Response refuseControlCharacters(ContainerRequestContext request) {
        String problem = problemIn("path parameter", request.getUriInfo().getPathParameters(true));
        if (problem == null) {
            problem = problemIn("query parameter", request.getUriInfo().getQueryParameters(true));
        }
        if (problem == null) {
            return null;
        }
        return Response.status(400).type(MediaType.APPLICATION_JSON_TYPE).entity(ApiError.of(400, problem)).build();
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
