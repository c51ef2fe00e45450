package dev.toolsmith.planner.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka clients as a planner holds them (the reference planner agent, the demo, the step benchmark and the
 * end-to-end tests): string keys, envelope bytes.
 */
public final class PlannerKafka {

    private PlannerKafka() {
    }

    /**
     * The client settings that log in to an authenticated broker as {@code user} (SASL/SCRAM-SHA-512 over
     * SASL_PLAINTEXT, docs/operations.md "Kafka authentication"); none when {@code user} is null, for a
     * broker without authentication. Planners log in as {@code planner}; their consumer groups must start
     * with {@code planner-}.
     */
    public static Map<String, Object> login(String user, String password) {
        if (user == null) {
            return Map.of();
        }
        if (password == null || password.isBlank()) {
            throw new IllegalArgumentException("no Kafka password for " + user);
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                        + user + "\" password=\"" + password + "\";");
    }

    /** {@code a} and then {@code b}, as one map (b wins). */
    public static Map<String, Object> with(Map<String, Object> a, Map<String, Object> b) {
        Map<String, Object> merged = new java.util.HashMap<>(a);
        merged.putAll(b);
        return merged;
    }

    /** A producer that waits for all replicas; {@code extra} tunes it (e.g. linger). */
    public static KafkaProducer<String, byte[]> producer(String bootstrap, Map<String, Object> extra) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.putAll(extra);
        return new KafkaProducer<>(p);
    }

    /**
     * A consumer of {@code topic} in a group of its own, positioned at the current end of every
     * partition before it is returned. With {@code auto.offset.reset=latest} alone the position is only
     * looked up lazily, so a record produced right after subscribing (a step's result) could land before
     * it and be skipped.
     */
    public static KafkaConsumer<String, byte[]> consumerAtEnd(String bootstrap, String topic, String groupPrefix,
            Map<String, Object> extra) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, groupPrefix + "-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.putAll(extra);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c);
        consumer.subscribe(List.of(topic));
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty()) {
            if (System.nanoTime() > end) {
                consumer.close();
                throw new IllegalStateException("no partition of " + topic + " was assigned within 30 s: is Kafka up"
                        + " at " + bootstrap + " and the topic created?");
            }
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.seekToEnd(consumer.assignment());
        consumer.assignment().forEach(consumer::position);
        return consumer;
    }
}
