package dev.toolsmith.capabilities.resolution;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.search.SearchReply;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Reads {@code tool-search-replies}. Every replica reads every reply (its consumer group is unique to
 * the instance) because the step waiting for a reply lives in one replica's memory; the others ignore
 * it. A reply that breaks its contract goes to the dead-letter topic.
 */
@ApplicationScoped
public class SearchReplyListener {

    private final ContractCodec codec;
    private final ToolSearchClient client;

    public SearchReplyListener(ContractCodec codec, ToolSearchClient client) {
        this.codec = codec;
        this.client = client;
    }

    @Incoming("tool-search-replies-in")
    public void onReply(byte[] raw) {
        EventEnvelope envelope = codec.openEnvelope(raw);
        client.deliver(codec.payload(envelope, SearchReply.class));
    }
}
