package dev.toolsmith.librarian.airlock.gap;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.eventing.IdempotentConsumer;
import dev.toolsmith.eventing.ReactiveBridge;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Find-or-build: for each {@code capability-gaps} event, searches the unapproved candidates (and the
 * directory, when enabled) and tags the best matches with the gap. The search runs first, on a worker
 * thread (embedding, possibly directory fetches); recording it is idempotent per event id. A message
 * that breaks its contract goes to {@code capability-gaps.dlq}.
 */
@ApplicationScoped
public class GapListener {

    static final String CONSUMER = "librarian-airlock-gaps";

    private final ContractCodec codec;
    private final IdempotentConsumer consumer;
    private final GapFinder finder;
    private final GapRecorder recorder;

    public GapListener(ContractCodec codec, IdempotentConsumer consumer, GapFinder finder, GapRecorder recorder) {
        this.codec = codec;
        this.consumer = consumer;
        this.finder = finder;
        this.recorder = recorder;
    }

    @Incoming("airlock-gaps-in")
    @Blocking
    public void onGap(byte[] raw) {
        EventEnvelope envelope = codec.openEnvelope(raw);
        CapabilityGap gap = codec.payload(envelope, CapabilityGap.class);
        List<SearchHit> hits = finder.find(gap);
        ReactiveBridge.await(() -> consumer.apply(CONSUMER, raw, CapabilityGap.class,
                (env, payload) -> recorder.record(payload, hits)));
    }
}
