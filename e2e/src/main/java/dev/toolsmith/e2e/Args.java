package dev.toolsmith.e2e;

import dev.toolsmith.planner.kafka.PlannerKafka;
import java.util.HashMap;
import java.util.Map;

/** {@code --name value} command-line options, with a clear error for a missing required one. */
public final class Args {

    private final Map<String, String> values = new HashMap<>();

    public Args(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
            String name = args[i].substring(2);
            boolean flag = i + 1 >= args.length || args[i + 1].startsWith("--");
            values.put(name, flag ? "true" : args[++i]);
        }
    }

    public String required(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return value;
    }

    public String get(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public int integer(String name, int fallback) {
        if (!values.containsKey(name)) {
            return fallback;
        }
        try {
            return Integer.parseInt(values.get(name));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be a whole number, got '" + values.get(name) + "'");
        }
    }

    /**
     * The Kafka login of {@code --kafka-user NAME} with its password from the environment
     * ({@code TOOLSMITH_KAFKA_PASSWORD}, kept off the command line); none without {@code --kafka-user}.
     */
    public Map<String, Object> kafkaLogin() {
        String user = get("kafka-user", null);
        if (user != null && System.getenv("TOOLSMITH_KAFKA_PASSWORD") == null) {
            throw new IllegalArgumentException("--kafka-user " + user + " needs its password in TOOLSMITH_KAFKA_PASSWORD");
        }
        return PlannerKafka.login(user, System.getenv("TOOLSMITH_KAFKA_PASSWORD"));
    }
}
