package dev.toolsmith.sandbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * The request as it was (or would have been) sent, with every secret replaced by {@value #REDACTED}: what
 * the engineer compares with what its stub received, and what operators may see.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecordedRequest(String method, String url, Map<String, List<String>> headers, String body) {

    public static final String REDACTED = "***";

    public RecordedRequest {
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
