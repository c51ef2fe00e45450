package dev.toolsmith.capabilities.support;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.testsupport.KafkaTestResource;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Sends envelopes exactly as another service's outbox relay does, with the
 * {@code content-type: application/cloudevents+json} header: consumers must read such records as bytes.
 * Records for {@code plan-steps} also carry the signature of {@link Steps#SIGNER}, as a planner's relay adds it.
 */
public final class RelayLikeProducer implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final ContractCodec codec = new ContractCodec();

    public RelayLikeProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        producer = new KafkaProducer<>(props);
    }

    public EventEnvelope send(String topic, String key, Object message) {
        EventEnvelope envelope = codec.envelope(message, "/relay-like", key);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, codec.serialize(envelope));
        record.headers().add("content-type",
                "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
        if (Topics.PLAN_STEPS.equals(topic)) {
            Steps.SIGNER.headers(record.value()).forEach(record.headers()::add);
        }
        try {
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic + ": " + e.getMessage(), e);
        }
        return envelope;
    }

    @Override
    public void close() {
        producer.close();
    }
}
