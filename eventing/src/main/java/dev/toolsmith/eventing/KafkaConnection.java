package dev.toolsmith.eventing;

import java.util.HashMap;
import java.util.Map;

/**
 * The connection part of the service's Kafka settings ({@code kafka.*}, Quarkus' "default-kafka-broker"):
 * where the broker is and how to authenticate ({@code security.protocol}, {@code sasl.*}, {@code ssl.*}).
 * The clients the platform builds itself (the outbox relay's producer, the topic provisioner's admin client)
 * start from these, so they authenticate as the same principal as the messaging channels; serialisation
 * and delivery settings stay each client's own.
 */
public final class KafkaConnection {

    private KafkaConnection() {
    }

    public static Map<String, Object> settings(Map<String, Object> kafkaConfig) {
        Map<String, Object> props = new HashMap<>();
        kafkaConfig.forEach((key, value) -> {
            if (key.startsWith("bootstrap.servers") || key.startsWith("security.") || key.startsWith("sasl.")
                    || key.startsWith("ssl.")) {
                props.put(key, value);
            }
        });
        return props;
    }
}
