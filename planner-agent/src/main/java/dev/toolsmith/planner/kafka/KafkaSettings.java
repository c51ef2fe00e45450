package dev.toolsmith.planner.kafka;

import java.time.Duration;
import java.util.Map;

/**
 * Where the Kafka-mode planner sends its steps and as whom, from the environment: {@code TOOLSMITH_KAFKA_BOOTSTRAP}
 * (default 127.0.0.1:9092), {@code TOOLSMITH_KAFKA_USER} (the broker login, default {@code planner}; empty for a
 * broker without authentication) with {@code TOOLSMITH_KAFKA_PASSWORD}, and {@code TOOLSMITH_PLANNER_NAME} (default
 * {@code planner}) with {@code PLANNER_API_KEY}: the caller the steps are signed as, and so run as. Secrets are never
 * printed.
 */
public record KafkaSettings(String bootstrap, Map<String, Object> login, String caller, String plannerKey,
        Duration stepTimeout) {

    public KafkaSettings {
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new IllegalArgumentException("TOOLSMITH_KAFKA_BOOTSTRAP is empty");
        }
        if (caller == null || caller.isBlank() || plannerKey == null || plannerKey.isBlank()) {
            throw new IllegalArgumentException("PLANNER_API_KEY is not set: Kafka-mode steps are signed with it"
                    + " (docs/mcp.md, \"Reference planner agent\")");
        }
        login = Map.copyOf(login);
        stepTimeout = stepTimeout == null ? Duration.ofSeconds(60) : stepTimeout;
    }

    public static KafkaSettings fromEnvironment(Map<String, String> env) {
        String user = env.getOrDefault("TOOLSMITH_KAFKA_USER", "planner");
        String password = env.get("TOOLSMITH_KAFKA_PASSWORD");
        if (!user.isBlank() && (password == null || password.isBlank())) {
            throw new IllegalArgumentException("TOOLSMITH_KAFKA_PASSWORD is not set: the broker login '" + user
                    + "' needs it (an empty TOOLSMITH_KAFKA_USER is a broker without authentication)");
        }
        Map<String, Object> login = user.isBlank() ? Map.of() : PlannerKafka.login(user, password);
        return new KafkaSettings(env.getOrDefault("TOOLSMITH_KAFKA_BOOTSTRAP", "127.0.0.1:9092"), login,
                env.getOrDefault("TOOLSMITH_PLANNER_NAME", "planner"), env.get("PLANNER_API_KEY"), null);
    }

    @Override
    public String toString() {
        return "KafkaSettings[bootstrap=" + bootstrap + ", caller=" + caller + "]";
    }
}
