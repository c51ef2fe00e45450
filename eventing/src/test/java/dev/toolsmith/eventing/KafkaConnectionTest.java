package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaConnectionTest {

    @Test
    void theClientsThePlatformBuildsAuthenticateLikeItsChannels() {
        Map<String, Object> kafka = Map.of(
                "bootstrap.servers", "broker:9092",
                "security.protocol", "SASL_PLAINTEXT",
                "sasl.mechanism", "SCRAM-SHA-512",
                "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"librarian\" password=\"p\";",
                "ssl.truststore.location", "/etc/kafka/truststore.p12",
                "value.serializer", "org.apache.kafka.common.serialization.StringSerializer",
                "group.id", "someone-else");

        assertThat(KafkaConnection.settings(kafka)).containsOnlyKeys("bootstrap.servers", "security.protocol",
                "sasl.mechanism", "sasl.jaas.config", "ssl.truststore.location");
    }

    @Test
    void aPlainBrokerNeedsOnlyItsAddress() {
        assertThat(KafkaConnection.settings(Map.of("bootstrap.servers", "localhost:9092", "acks", "all")))
                .isEqualTo(Map.of("bootstrap.servers", "localhost:9092"));
    }
}
