package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Everything needed to turn a wrapped tool's inputs into one HTTP request: the server URL chosen from
 * the approved spec, the path template, where each input goes, the auth scheme and the limits.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HttpBinding(
        String method,
        String serverUrl,
        String pathTemplate,
        List<ParameterBinding> parameters,
        BodyEncoding bodyEncoding,
        AuthBinding auth,
        int timeoutMs,
        long maxResponseBytes) {

    public static final int DEFAULT_TIMEOUT_MS = 10_000;
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 2L * 1024 * 1024;

    public HttpBinding {
        parameters = parameters == null ? List.of() : List.copyOf(parameters);
        bodyEncoding = bodyEncoding == null ? BodyEncoding.NONE : bodyEncoding;
        auth = auth == null ? AuthBinding.none() : auth;
        timeoutMs = timeoutMs <= 0 ? DEFAULT_TIMEOUT_MS : timeoutMs;
        maxResponseBytes = maxResponseBytes <= 0 ? DEFAULT_MAX_RESPONSE_BYTES : maxResponseBytes;
    }
}
