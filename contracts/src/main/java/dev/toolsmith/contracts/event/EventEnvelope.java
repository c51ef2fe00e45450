package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A CloudEvents 1.0 envelope in structured JSON mode. Every event on every topic travels in one, so a
 * consumer can deduplicate by {@code id} and tell the payload's contract by {@code type}.
 *
 * <p>{@code traceparent} is the CloudEvents Distributed Tracing extension attribute: the W3C trace
 * context of the unit of work that emitted the event, so a consumer continues the same trace. It is
 * optional and left out of the JSON when absent.
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
        JsonNode data,
        String traceparent) {

    public static final String SPEC_VERSION = "1.0";
    public static final String CONTENT_TYPE = "application/json";

    /** An envelope outside any trace. */
    public EventEnvelope(String specversion, String id, String type, String source, Instant time, String subject,
            String datacontenttype, JsonNode data) {
        this(specversion, id, type, source, time, subject, datacontenttype, data, null);
    }

    /** The same event, carrying {@code traceparent} (null: outside any trace). */
    public EventEnvelope withTraceparent(String traceparent) {
        return new EventEnvelope(specversion, id, type, source, time, subject, datacontenttype, data, traceparent);
    }
}
