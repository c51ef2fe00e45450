package dev.toolsmith.eventing;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.eventing.tracing.Tracing;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * Appends events to the transactional outbox. Call it inside the transaction that makes the state
 * change ({@code Panache.withTransaction}): the event is published if and only if that transaction
 * commits. A {@code NOTIFY} in the same transaction wakes the relay at commit, so events leave within
 * milliseconds without busy polling.
 */
@ApplicationScoped
public class Outbox {

    private final ContractCodec codec;
    private final EventingConfig config;
    private final Tracing tracing;
    private final OutboxRelay relay;
    private final String channel;
    private final String notifyStatement;

    public Outbox(ContractCodec codec, EventingConfig config, Tracing tracing, OutboxRelay relay) {
        this.codec = codec;
        this.config = config;
        this.tracing = tracing;
        this.relay = relay;
        this.channel = OutboxRelay.channelFor(config.schema());
        this.notifyStatement = "NOTIFY " + channel;
    }

    /** The event type of a tombstone row: its envelope is empty and the relay publishes a null value. */
    public static final String TOMBSTONE = "tombstone";

    /**
     * Appends {@code message} for {@code topic} under {@code key}; returns the event (its id is the dedupe key).
     * Inside a traced unit of work the event carries its trace ({@code traceparent}), so consumers continue it.
     */
    public Uni<EventEnvelope> append(String topic, String key, Object message) {
        EventEnvelope envelope = envelope(key, message);
        return row(topic, key, envelope).persist()
                .chain(() -> Panache.getSession())
                .chain(session -> session.createNativeQuery(notifyStatement).executeUpdate())
                .replaceWith(envelope);
    }

    /**
     * The outbox row for {@code message}, not yet written: for a writer that inserts it in a statement of
     * its own. That statement must also {@code pg_notify} {@link #channel()} unless {@link #relayIsLocal()},
     * in which case the writer calls {@link #committed()} after its commit instead.
     */
    public OutboxEvent prepare(String topic, String key, Object message) {
        return row(topic, key, envelope(key, message));
    }

    private EventEnvelope envelope(String key, Object message) {
        return codec.envelope(message, config.eventSource(), key).withTraceparent(tracing.currentTraceparent());
    }

    private OutboxEvent row(String topic, String key, EventEnvelope envelope) {
        OutboxEvent row = new OutboxEvent();
        row.id = UUID.fromString(envelope.id());
        row.topic = topic;
        row.messageKey = key;
        row.eventType = envelope.type();
        row.envelope = new String(codec.serialize(envelope), java.nio.charset.StandardCharsets.UTF_8);
        row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        return row;
    }

    /** The channel the relay listens on; a notification on it at commit wakes the relay. */
    public String channel() {
        return channel;
    }

    /**
     * True while the active relay is this instance's own: a writer of its own statements may then wake it
     * with {@link #committed()} after the commit rather than notify in the transaction, which spares the
     * database a signal to every listening session and the lock that queues notifying commits.
     */
    public boolean relayIsLocal() {
        return relay.leading();
    }

    /** After a commit that wrote outbox rows without notifying: the local relay publishes them now. */
    public void committed() {
        relay.wake();
    }

    /**
     * Appends a tombstone for {@code key} on a compacted {@code topic}: a record with no value, published in
     * order with the key's other events, which tells consumers the entity is gone and lets compaction
     * forget the key.
     */
    public Uni<Void> appendTombstone(String topic, String key) {
        OutboxEvent row = new OutboxEvent();
        row.id = UUID.randomUUID();
        row.topic = topic;
        row.messageKey = java.util.Objects.requireNonNull(key, "a tombstone needs a key");
        row.eventType = TOMBSTONE;
        row.envelope = "";
        row.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
        return row.persist()
                .chain(() -> Panache.getSession())
                .chain(session -> session.createNativeQuery(notifyStatement).executeUpdate())
                .replaceWithVoid();
    }
}
