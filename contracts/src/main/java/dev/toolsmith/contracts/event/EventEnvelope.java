package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A CloudEvents 1.0 envelope in structured JSON mode. Every event on every topic travels in one, so a
 * consumer can deduplicate by {@code id} and tell the payload's contract by {@code type}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EventEnvelope(
        String specversion,
        String id,
        String type,
        String source,
        Instant time,
        String subject,
        String datacontenttype,
        JsonNode data) {

    public static final String SPEC_VERSION = "1.0";
    public static final String CONTENT_TYPE = "application/json";
}
