package dev.toolsmith.testsupport;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.step.PlanStepSigner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Plays the other side of a service's topics in tests: sends envelopes and raw bytes, reads records. Built
 * with a {@link PlanStepSigner} it is a planner's client: every record it sends carries that planner's
 * signature headers (docs/events.md, "Signing a plan step").
 */
public class KafkaTestClient implements AutoCloseable {

    private static final byte[] CLOUD_EVENTS_CONTENT_TYPE =
            "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8);

    private final String bootstrap;
    private final ContractCodec codec = new ContractCodec();
    private final KafkaProducer<String, byte[]> producer;
    private final PlanStepSigner signer;
    private final Map<String, Object> login;
    private final String groupPrefix;

    public KafkaTestClient(String bootstrap) {
        this(bootstrap, null);
    }

    /** A planner's client: each record is signed by {@code signer}. */
    public KafkaTestClient(String bootstrap, PlanStepSigner signer) {
        this(bootstrap, signer, Map.of(), "test-");
    }

    /**
     * A client of an authenticated broker: {@code login} holds the SASL settings of its principal, and its
     * readers' consumer groups start with {@code groupPrefix} (a prefix that principal may use).
     */
    public KafkaTestClient(String bootstrap, PlanStepSigner signer, Map<String, Object> login, String groupPrefix) {
        this.bootstrap = bootstrap;
        this.signer = signer;
        this.login = Map.copyOf(login);
        this.groupPrefix = groupPrefix;
        Properties props = new Properties();
        props.putAll(this.login);
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        this.producer = new KafkaProducer<>(props);
    }

    public ContractCodec codec() {
        return codec;
    }

    /** Sends {@code message} in a new envelope; returns the envelope (its id is the dedupe key). */
    public EventEnvelope send(String topic, String key, Object message) {
        EventEnvelope envelope = codec.envelope(message, "/test", key);
        send(topic, key, envelope);
        return envelope;
    }

    /**
     * Sends the envelope the way the outbox relay does, content-type header included, so a consumer
     * whose connector would turn structured CloudEvents into a JsonObject fails in tests too.
     */
    public void send(String topic, String key, EventEnvelope envelope) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, codec.serialize(envelope));
        record.headers().add("content-type", CLOUD_EVENTS_CONTENT_TYPE);
        sendRecord(record);
    }

    public void sendRaw(String topic, String key, byte[] value) {
        sendRecord(new ProducerRecord<>(topic, key, value));
    }

    private void sendRecord(ProducerRecord<String, byte[]> record) {
        if (signer != null && record.value() != null) {
            signer.headers(record.value()).forEach(record.headers()::add);
        }
        try {
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + record.topic() + ": " + e.getMessage(), e);
        }
    }

    /** A consumer of {@code topic} from its beginning, in a group of its own. */
    public Reader reader(String topic) {
        return new Reader(topic);
    }

    @Override
    public void close() {
        producer.close();
    }

    /** Reads one topic from the start; remembers everything it has seen. */
    public final class Reader implements AutoCloseable {

        private final KafkaConsumer<String, byte[]> consumer;
        private final List<ConsumerRecord<String, byte[]>> seen = new ArrayList<>();
        /** partition:offset of every record in {@link #seen}. */
        private final java.util.Set<String> positions = new java.util.HashSet<>();

        private Reader(String topic) {
            Properties props = new Properties();
            props.putAll(login);
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + UUID.randomUUID());
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            consumer = new KafkaConsumer<>(props);
            consumer.subscribe(List.of(topic));
        }

        /** Polls for {@code duration} and returns everything seen so far. */
        public List<ConsumerRecord<String, byte[]>> pollFor(Duration duration) {
            long end = System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end) {
                consumer.poll(Duration.ofMillis(100)).forEach(this::keep);
            }
            return List.copyOf(seen);
        }

        /** Polls until a record matches or {@code timeout} passes; the matches seen so far. */
        public List<ConsumerRecord<String, byte[]>> awaitMatching(Predicate<ConsumerRecord<String, byte[]>> match,
                Duration timeout) {
            long end = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < end && seen.stream().noneMatch(match)) {
                consumer.poll(Duration.ofMillis(100)).forEach(this::keep);
            }
            return seen.stream().filter(match).toList();
        }

        /**
         * Keeps a record once. After a broker restart the reader's group may not have committed its offsets
         * yet and reads the topic again from an earlier position: a record read twice is still one record
         * (a result published twice would sit at two offsets and still be counted twice).
         */
        private void keep(ConsumerRecord<String, byte[]> record) {
            if (positions.add(record.partition() + ":" + record.offset())) {
                seen.add(record);
            }
        }

        public List<EventEnvelope> envelopes() {
            return seen.stream().map(r -> codec.openEnvelope(r.value())).toList();
        }

        public Map<String, String> headersOf(ConsumerRecord<String, byte[]> record) {
            Map<String, String> headers = new java.util.HashMap<>();
            record.headers().forEach(h -> headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
            return headers;
        }

        @Override
        public void close() {
            consumer.close();
        }
    }
}
