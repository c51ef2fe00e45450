package dev.toolsmith.capabilities.resolution;

import dev.toolsmith.capabilities.config.SearchConfig;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.eventing.EventingConfig;
import dev.toolsmith.eventing.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Asks the librarian for tools over Kafka: publishes a {@link SearchRequest} on
 * {@code tool-search-requests} (key and requestId: the step id) and waits for the
 * {@link SearchReply} with that requestId on {@code tool-search-replies}, at most
 * {@code toolsmith.search.timeout}. The request is sent directly, not through the outbox: it changes
 * no state, and if it is lost the timeout answers for it.
 */
@ApplicationScoped
public class ToolSearchClient {

    private static final Logger LOG = Logger.getLogger(ToolSearchClient.class);
    private static final byte[] CLOUDEVENTS_JSON = "application/cloudevents+json; charset=UTF-8"
            .getBytes(StandardCharsets.UTF_8);

    private final MutinyEmitter<byte[]> requests;
    private final ContractCodec codec;
    private final String source;
    private final SearchConfig config;
    private final Tracing tracing;
    private final ConcurrentMap<String, CompletableFuture<SearchReply>> pending = new ConcurrentHashMap<>();

    public ToolSearchClient(@Channel("tool-search-requests-out") MutinyEmitter<byte[]> requests, ContractCodec codec,
            EventingConfig eventing, SearchConfig config, Tracing tracing) {
        this.requests = requests;
        this.codec = codec;
        this.source = eventing.eventSource();
        this.config = config;
        this.tracing = tracing;
    }

    /** The reply, or empty when none came within the timeout. */
    public Uni<Optional<SearchReply>> search(SearchRequest request) {
        CompletableFuture<SearchReply> reply = new CompletableFuture<>();
        pending.put(request.requestId(), reply);
        // Sent by the emitter, not the outbox: the request carries the search span's trace context itself,
        // so the librarian's search continues this step's trace.
        Span span = tracing.startChild("search");
        EventEnvelope envelope = codec.envelope(request, source, request.requestId())
                .withTraceparent(tracing.traceparentOf(span));
        RecordHeaders headers = new RecordHeaders();
        headers.add("content-type", CLOUDEVENTS_JSON);
        requests.sendMessageAndForget(Message.of(codec.serialize(envelope)).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(request.requestId()).withHeaders(headers).build()));
        return Uni.createFrom().completionStage(reply)
                .ifNoItem().after(config.timeout()).recoverWithItem((SearchReply) null)
                .map(Optional::ofNullable)
                .onItemOrFailure().invoke((answer, failure) -> endSpan(span, answer, failure))
                .onTermination().invoke(() -> pending.remove(request.requestId(), reply));
    }

    private void endSpan(Span span, Optional<SearchReply> answer, Throwable failure) {
        if (answer != null) {
            span.setAttribute("toolsmith.search.answered", answer.isPresent());
            answer.filter(r -> r.hits() != null).ifPresent(r -> span.setAttribute("toolsmith.search.hits", r.hits().size()));
        }
        tracing.end(span, failure);
    }

    /** Called for every reply seen; replies nobody here waits for belong to another replica or came late. */
    public void deliver(SearchReply reply) {
        CompletableFuture<SearchReply> waiting = pending.get(reply.requestId());
        if (waiting == null) {
            LOG.debugf("search reply %s: nobody waits for it here", reply.requestId());
            return;
        }
        waiting.complete(reply);
    }
}
