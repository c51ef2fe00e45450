package dev.toolsmith.e2e;

import dev.toolsmith.planner.kafka.PlannerKafka;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options of a driver that acts as a planner (the demo, the steps benchmark): where the broker is, the Kafka
 * login, and the name and API key that sign every step (docs/events.md, "Signing a plan step").
 */
public final class PlannerOptions {

    /** The password never comes on the command line, where {@code ps} would show it. */
    static final String KAFKA_PASSWORD = "TOOLSMITH_KAFKA_PASSWORD";

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers")
    String bootstrap;

    @Option(names = "--kafka-user", paramLabel = "NAME",
            description = "Kafka login, its password in " + KAFKA_PASSWORD + " (default: a plain broker)")
    String kafkaUser;

    @Option(names = "--caller", defaultValue = "planner", paramLabel = "NAME",
            description = "the planner's configured name, signing every step (default ${DEFAULT-VALUE})")
    String caller;

    @Option(names = "--planner-key", required = true, paramLabel = "KEY", description = "the planner's API key")
    String plannerKey;

    public String bootstrap() {
        return bootstrap;
    }

    public String caller() {
        return caller;
    }

    public String plannerKey() {
        return plannerKey;
    }

    /**
     * The Kafka login ({@link PlannerKafka#login}), empty without {@code --kafka-user}; a user without its password
     * is a usage error (exit code 2, with the usage).
     */
    public Map<String, Object> kafkaLogin() {
        String password = System.getenv(KAFKA_PASSWORD);
        if (kafkaUser != null && (password == null || password.isBlank())) {
            throw new ParameterException(command.commandLine(),
                    "--kafka-user " + kafkaUser + " needs its password in " + KAFKA_PASSWORD);
        }
        return PlannerKafka.login(kafkaUser, password);
    }
}
