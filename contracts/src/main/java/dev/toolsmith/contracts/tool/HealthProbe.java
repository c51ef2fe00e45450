package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A safe, read-only call that tells whether a wrapped tool's API works: a binding and inputs that need
 * no user data. When the API offers no such operation, {@code binding} is null and
 * {@code unavailableReason} says why.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HealthProbe(HttpBinding binding, Map<String, JsonNode> inputs, int intervalSeconds,
        String unavailableReason) {

    public static final int DEFAULT_INTERVAL_SECONDS = 60;

    public HealthProbe {
        inputs = inputs == null ? Map.of() : Map.copyOf(inputs);
        intervalSeconds = intervalSeconds <= 0 ? DEFAULT_INTERVAL_SECONDS : intervalSeconds;
    }

    public static HealthProbe unavailable(String reason) {
        return new HealthProbe(null, null, 0, reason);
    }

    @JsonIgnore
    public boolean available() {
        return binding != null;
    }
}
