package dev.toolsmith.eventing;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.BiFunction;
import org.jboss.logging.Logger;

/**
 * Applies an incoming event at most once per consumer. The envelope and payload are validated first; a
 * message that breaks its contract fails with a {@link dev.toolsmith.contracts.event.ContractViolation}
 * that names the field, which the channel's dead-letter strategy forwards to {@code <topic>.dlq}.
 */
@ApplicationScoped
public class IdempotentConsumer {

    private static final Logger LOG = Logger.getLogger(IdempotentConsumer.class);

    private final ContractCodec codec;
    private final ProcessedEvents processed;

    public IdempotentConsumer(ContractCodec codec, ProcessedEvents processed) {
        this.codec = codec;
        this.processed = processed;
    }

    /**
     * Opens {@code raw}, and in one transaction records its id for {@code consumer} and runs
     * {@code effect} — unless the id was already recorded, in which case nothing happens.
     */
    public <T> Uni<Void> apply(String consumer, byte[] raw, Class<T> type,
            BiFunction<EventEnvelope, T, Uni<Void>> effect) {
        EventEnvelope envelope = codec.openEnvelope(raw);
        T payload = codec.payload(envelope, type);
        return Panache.withTransaction(() -> processed.firstDelivery(envelope.id(), consumer)
                .chain(first -> {
                    if (!first) {
                        LOG.debugf("%s: event %s already applied, skipped", consumer, envelope.id());
                        return Uni.createFrom().voidItem();
                    }
                    return effect.apply(envelope, payload);
                }));
    }
}
