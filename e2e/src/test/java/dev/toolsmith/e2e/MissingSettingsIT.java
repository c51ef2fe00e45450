package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A service started without its database URL or its Kafka brokers stops at once and names the
 * environment variable to set (there are no silent defaults such as localhost:9092). One packaged
 * service is enough: the check lives in the shared {@code eventing} module. No platform is started.
 */
class MissingSettingsIT {

    private static final Path HOME = Path.of(System.getProperty("toolsmith.home", "..")).toAbsolutePath().normalize();
    private static final Path JAR = HOME.resolve("capabilities-manager/target/quarkus-app/quarkus-run.jar");
    private static final Path LOGS = Path.of("target/missing-settings").toAbsolutePath();
    // Generous: a service's JVM needs about 5 s to get this far on an idle machine.
    private static final int EXIT_WITHIN_SECONDS = 120;

    @Test
    void withoutADatabaseUrlTheServiceStopsAndNamesTheVariable() throws Exception {
        Outcome outcome = start("no-database-url", Map.of("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:1"));

        assertThat(outcome.exitCode()).as(outcome.output()).isNotZero();
        assertThat(outcome.output())
                .contains("TOOLSMITH_DB_URL is not set: the PostgreSQL URL, e.g. TOOLSMITH_DB_URL=postgresql://")
                .doesNotContain("KAFKA_BOOTSTRAP_SERVERS is not set");
    }

    @Test
    void withoutKafkaBootstrapServersTheServiceStopsAndNamesTheVariable() throws Exception {
        // A URL nothing listens on: should the check ever come too late, no real database is migrated.
        Outcome outcome = start("no-kafka", Map.of("TOOLSMITH_DB_URL", "postgresql://127.0.0.1:1/none"));

        assertThat(outcome.exitCode()).as(outcome.output()).isNotZero();
        assertThat(outcome.output())
                .contains("KAFKA_BOOTSTRAP_SERVERS is not set: the Kafka brokers, e.g. KAFKA_BOOTSTRAP_SERVERS=")
                .doesNotContain("TOOLSMITH_DB_URL is not set")
                // stopped before it tried the database at all
                .doesNotContain("Connection to 127.0.0.1:1 refused");
    }

    private record Outcome(int exitCode, String output) {}

    /** Runs the service with only the given settings (the two required ones removed from the environment). */
    private static Outcome start(String name, Map<String, String> settings) throws IOException, InterruptedException {
        assertThat(JAR).as("package the capabilities manager first: ./mvnw -pl capabilities-manager -am install -DskipTests")
                .exists();
        Files.createDirectories(LOGS);
        Path log = LOGS.resolve(name + ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(List.of(java, "-jar", JAR.toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.remove("TOOLSMITH_DB_URL");
        env.remove("KAFKA_BOOTSTRAP_SERVERS");
        env.putAll(settings);
        env.put("TOOLSMITH_CAPABILITIES_PORT", "0"); // never collides with a running platform
        Process process = builder.start();
        if (!process.waitFor(EXIT_WITHIN_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the service was still running after " + EXIT_WITHIN_SECONDS
                    + " s instead of stopping; output:\n" + Files.readString(log));
        }
        return new Outcome(process.exitValue(), Files.readString(log));
    }
}
