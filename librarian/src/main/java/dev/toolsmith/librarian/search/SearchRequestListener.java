package dev.toolsmith.librarian.search;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.eventing.EventingConfig;
import dev.toolsmith.eventing.logging.LogIds;
import dev.toolsmith.eventing.tracing.Tracing;
import dev.toolsmith.search.SearchDefaults;
import dev.toolsmith.search.SearchResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Answers novel-verb searches: {@code tool-search-requests} in, {@code tool-search-replies} out, keyed and
 * correlated by the request id (the step id).
 *
 * <p>The reply is produced directly, not through the transactional outbox. It changes no state, so there is
 * nothing to commit it with, and the outbox would add a database write and a relay hop to a path whose
 * end-to-end target is 60 ms at p99. The request's offset is committed only after the reply is
 * acknowledged, so a crash before that redelivers the request and it is answered again (at least once;
 * the capabilities manager keeps the first reply per step). A reply lost in any other way only makes the
 * capabilities manager time out on that step, which it already has to handle.
 *
 * <p>A request that cannot be read, or breaks its contract, is answered with {@code error} set (when its
 * id can be found, so the requester does not wait for the timeout) and goes to
 * {@code tool-search-requests.dlq}. Requests are handled in parallel on worker threads: order between
 * independent searches does not matter.
 *
 * <p>While a request is handled, its step id (the request id) and trace id are in the log MDC
 * ({@code step=… trace=…} in the text format): the same ids the capabilities manager's lines for the step
 * carry, so one grep finds both sides. The request names no plan; the step's lines there have it.
 */
@ApplicationScoped
public class SearchRequestListener {

    private static final Logger LOG = Logger.getLogger(SearchRequestListener.class);

    private final ContractCodec codec;
    private final ToolSearch search;
    private final MutinyEmitter<byte[]> replies;
    private final String source;
    private final Tracing tracing;

    public SearchRequestListener(ContractCodec codec, ToolSearch search, EventingConfig config,
            @Channel("tool-search-replies-out") MutinyEmitter<byte[]> replies, Tracing tracing) {
        this.codec = codec;
        this.tracing = tracing;
        this.search = search;
        this.replies = replies;
        this.source = config.eventSource();
    }

    @Incoming("tool-search-requests-in")
    @Blocking(ordered = false)
    public void onRequest(ConsumerRecord<String, byte[]> record) {
        String requestId = record.key();
        // Until the envelope is read there is no trace to continue: such a request gets no span.
        Span span = null;
        LogIds ids = LogIds.open().put("stepId", requestId);
        try {
            if (record.value() == null) {
                throw new ContractViolation("", "the record has no value");
            }
            EventEnvelope envelope = codec.openEnvelope(record.value());
            span = tracing.startFromEnvelope("search", envelope);
            ids.put("traceId", span.getSpanContext().getTraceId());
            requestId = requestIdOf(envelope, record.key());
            ids.put("stepId", requestId);
            SearchRequest request = codec.payload(envelope, SearchRequest.class);
            if (requestId == null) {
                throw new ContractViolation("/data/requestId", "field /data/requestId: required on "
                        + "tool-search-requests (or the record key)");
            }
            SearchResult result = search.search(request, request.caller());
            span.setAttribute("toolsmith.search.hits", result.hits().size());
            LOG.debugf("search for %s: %d hits", request.verb(), result.hits().size());
            reply(new SearchReply(requestId, result.hits(), SearchDefaults.SUBSTITUTION_THRESHOLD, null), span);
        } catch (ContractViolation violation) {
            if (span != null) {
                span.recordException(violation);
                span.setStatus(StatusCode.ERROR, violation.getMessage());
            }
            if (requestId != null && !requestId.isBlank()) {
                LOG.infof("invalid search request, answered with the error: %s", violation.getMessage());
                reply(new SearchReply(requestId, null, SearchDefaults.SUBSTITUTION_THRESHOLD,
                        "invalid search request: " + violation.getMessage()), span);
            } else {
                LOG.debugf("search request without an id, nobody to answer: %s", violation.getMessage());
            }
            throw violation; // to tool-search-requests.dlq
        } finally {
            if (span != null) {
                span.end();
            }
            ids.close(); // worker threads are shared: the next request must not print these ids
        }
    }

    private static String requestIdOf(EventEnvelope envelope, String key) {
        JsonNode id = envelope.data() == null ? null : envelope.data().get("requestId");
        if (id != null && id.isTextual() && !id.asText().isBlank()) {
            return id.asText();
        }
        return key == null || key.isBlank() ? null : key;
    }

    /**
     * Sends the reply without a {@code content-type} header on purpose: a SmallRye consumer that has not set
     * {@code cloud-events=false} turns an {@code application/cloudevents+json} record into a JsonObject,
     * and a listener taking the raw bytes (the capabilities manager's) then fails with a
     * ClassCastException and dead-letters every reply. The value is the same CloudEvents envelope.
     */
    private void reply(SearchReply reply, Span span) {
        // The reply continues the search's trace; the asking step reads it from the envelope.
        byte[] value = codec.serialize(codec.envelope(reply, source, reply.requestId())
                .withTraceparent(tracing.traceparentOf(span)));
        OutgoingKafkaRecordMetadata<String> metadata = OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(reply.requestId()).build();
        replies.sendMessageAndAwait(Message.of(value).addMetadata(metadata));
    }
}
