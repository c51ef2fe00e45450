package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * The request a case must produce, as the server decodes it: method, the path's segments after the
 * server's base path (decoded), query parameters, headers and cookies (decoded values), and the body
 * (JSON, or form fields). Derived from the binding's rules independently of the executor's encoder, so
 * the comparison catches an executor that serialises a style wrongly.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExpectedRequest(
        String method,
        List<String> pathSegments,
        Map<String, List<String>> query,
        Map<String, String> headers,
        Map<String, String> cookies,
        JsonNode jsonBody,
        Map<String, List<String>> formBody) {
}
