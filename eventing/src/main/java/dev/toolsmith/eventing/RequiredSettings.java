package dev.toolsmith.eventing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;

/**
 * The two settings no service can start without, checked when the configuration is read, before
 * Flyway, Hibernate or Kafka touch anything. Without this check a missing {@code TOOLSMITH_DB_URL}
 * surfaces as Quarkus's "datasource was deactivated automatically" and a missing
 * {@code KAFKA_BOOTSTRAP_SERVERS} as Kafka's "You must set either bootstrap.servers" after the
 * migrations already ran; neither names the variable an operator has to set.
 *
 * <p>Both values are read through the settings Quarkus and Kafka use ({@code META-INF/microprofile-config.properties}
 * maps them to {@code quarkus.datasource.jdbc.url} and {@code kafka.bootstrap.servers}), so tests that
 * set those directly pass. An unset value is an empty Optional (an Optional, so that reading it never
 * fails before the check can speak); the constraint sits on its element because Hibernate Validator
 * hands an empty Optional's element to it as null. The messages contain no braces: Bean Validation
 * would read them as templates.
 */
@ConfigMapping(prefix = "toolsmith.required")
public interface RequiredSettings {

    @WithName("database-url")
    Optional<@NotNull(message = "TOOLSMITH_DB_URL is not set: the PostgreSQL URL, e.g. "
            + "TOOLSMITH_DB_URL=postgresql://127.0.0.1:5432/toolsmith (docs/operations.md)") String> databaseUrl();

    @WithName("kafka-bootstrap-servers")
    Optional<@NotNull(message = "KAFKA_BOOTSTRAP_SERVERS is not set: the Kafka brokers, e.g. "
            + "KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:9092 (deploy/local/kafka-start.sh starts one)") String> kafkaBootstrapServers();
}
