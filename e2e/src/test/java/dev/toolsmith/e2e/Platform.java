package dev.toolsmith.e2e;

import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.planner.kafka.PlannerKafka;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.PostgresTestResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The whole platform, for real: {@code ./toolsmith up} on ports and a database of its own (so a
 * developer's running platform is untouched) — a standalone KRaft broker, PostgreSQL, and every
 * service as a JVM process. Started once for all end-to-end tests and stopped after the last one.
 */
public final class Platform implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {

    public static final int LIBRARIAN_PORT = 18081;
    public static final int CAPABILITIES_PORT = 18082;
    public static final int ENGINEER_PORT = 18083;
    public static final int UI_PORT = 18080;
    public static final int KAFKA_PORT = 19092;
    private static final String DATABASE = "toolsmith_e2e";
    /** What {@code ./toolsmith up} starts, by the names of their pid files. */
    private static final List<String> INSTANCES = List.of("kafka", "librarian", "capabilities-manager", "engineer",
            "airlock-ui");

    private static Platform running;

    private final Path home = Path.of(System.getProperty("toolsmith.home", "..")).toAbsolutePath().normalize();
    private final Path state = Path.of(System.getProperty("toolsmith.e2e.state", "target/platform")).toAbsolutePath();
    private Map<String, String> credentials = Map.of();

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (Platform.class) {
            if (running == null) {
                // A fresh database needs a fresh broker: topics from an earlier run (the compacted catalog,
                // consumer offsets) would describe a platform that no longer exists.
                PostgresTestResource.recreate(DATABASE);
                deleteRecursively(state.resolve("kafka"));
                toolsmith(List.of("up"), 600);
                credentials = readCredentials();
                running = this;
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(Platform.class.getName(), this);
            } else {
                running.restoreIfIncomplete();
            }
        }
    }

    /**
     * Every test class finds the platform as {@code ./toolsmith up} left it: a class that kills an instance
     * leaves the restart to the next class that needs the platform, so the last class's crashes cost no restart.
     */
    private void restoreIfIncomplete() throws IOException, InterruptedException {
        for (String instance : INSTANCES) {
            if (pid(instance).isEmpty()) {
                restartMissing();
                return;
            }
        }
    }

    @Override
    public void close() throws Exception {
        toolsmith(List.of("down"), 120);
    }

    public static Platform get() {
        if (running == null) {
            throw new IllegalStateException("annotate the test with @ExtendWith(Platform.class)");
        }
        return running;
    }

    public static String librarian() {
        return "http://127.0.0.1:" + LIBRARIAN_PORT;
    }

    public static String capabilities() {
        return "http://127.0.0.1:" + CAPABILITIES_PORT;
    }

    public static String engineer() {
        return "http://127.0.0.1:" + ENGINEER_PORT;
    }

    public static String kafka() {
        return "127.0.0.1:" + KAFKA_PORT;
    }

    public String adminKey() {
        return credentials.get("ADMIN_API_KEY");
    }

    public String plannerKey() {
        return credentials.get("PLANNER_API_KEY");
    }

    /**
     * The SASL settings that log in to the platform's broker as {@code principal}: {@code planner}, {@code admin},
     * or a service ({@code librarian}, {@code capabilities-manager}, {@code engineer}); docs/operations.md.
     */
    public Map<String, Object> kafkaLogin(String principal) {
        return PlannerKafka.login(principal,
                credentials.get("KAFKA_" + principal.toUpperCase().replace('-', '_') + "_PASSWORD"));
    }

    /**
     * A Kafka test client logged in as {@code principal}; its readers' groups use that principal's prefix. The
     * {@code planner}'s signs what it sends with the planner's API key, as every planner signs its plan steps.
     */
    public KafkaTestClient kafkaClient(String principal) {
        return new KafkaTestClient(kafka(), "planner".equals(principal) ? plannerSigner() : null, kafkaLogin(principal),
                principal + "-test-");
    }

    /** Signs plan-steps records as the launcher's planner ({@code toolsmith.security.api-keys.planner}). */
    public PlanStepSigner plannerSigner() {
        return PlanStepSigner.of("planner", plannerKey());
    }

    public Path home() {
        return home;
    }

    /** The launcher's state folder for this platform: logs, pids, credentials. */
    public Path state() {
        return state;
    }

    /**
     * Starts one more instance of {@code service} on {@code port} the way an operator does ({@code ./toolsmith
     * replica}: the same database, broker, credentials and settings) and waits until it is ready. Returns its
     * instance name, which {@link #kill}, {@link #stop} and {@link #pid} take; {@code ./toolsmith down} stops it.
     */
    public String startReplica(String service, int port) throws IOException, InterruptedException {
        toolsmith(List.of("replica", service, String.valueOf(port)), 300);
        return service + "-" + port;
    }

    /** The process id of a running instance ({@code librarian}, or a replica such as {@code librarian-18091}). */
    public OptionalLong pid(String instance) throws IOException {
        Path file = state.resolve("pids/" + instance + ".pid");
        if (!Files.exists(file)) {
            return OptionalLong.empty();
        }
        long pid = Long.parseLong(Files.readString(file).trim());
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? OptionalLong.of(pid) : OptionalLong.empty();
    }

    /** A connection to the platform's database, as the services' role. */
    public static Connection database() throws SQLException {
        return DriverManager.getConnection(PostgresTestResource.jdbcUrl(DATABASE), PostgresTestResource.user(),
                PostgresTestResource.password());
    }

    /** Kills a service the hard way (SIGKILL), as a crash would. */
    public void kill(String service) throws IOException, InterruptedException {
        signalAndAwaitExit(service, "-9", 10_000);
    }

    /** Stops a service gracefully (SIGTERM), as a rolling deployment does, and waits until it has exited. */
    public void stop(String service) throws IOException, InterruptedException {
        signalAndAwaitExit(service, "-TERM", 60_000);
    }

    private void signalAndAwaitExit(String service, String signal, long timeoutMillis)
            throws IOException, InterruptedException {
        String pid = Files.readString(state.resolve("pids/" + service + ".pid")).trim();
        new ProcessBuilder("kill", signal, pid).inheritIO().start().waitFor();
        long end = System.currentTimeMillis() + timeoutMillis;
        while (ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false)
                && System.currentTimeMillis() < end) {
            Thread.sleep(50);
        }
    }

    /** Starts whatever is not running (the launcher is idempotent) and waits until all are healthy. */
    public void restartMissing() throws IOException, InterruptedException {
        toolsmith(List.of("up"), 300);
    }

    public void stopKafka() throws IOException, InterruptedException {
        run(List.of(home.resolve("deploy/local/kafka-stop.sh").toString()), 60);
    }

    public void startKafka() throws IOException, InterruptedException {
        run(List.of(home.resolve("deploy/local/kafka-start.sh").toString()), 60);
    }

    private void toolsmith(List<String> args, int timeoutSeconds) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("toolsmith").toString());
        command.addAll(args);
        run(command, timeoutSeconds);
    }

    private void run(List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).inheritIO();
        Map<String, String> env = builder.environment();
        env.putAll(environment());
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed with exit code " + process.exitValue()
                    + "; logs in " + state.resolve("logs"));
        }
    }

    private Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        env.put("TOOLSMITH_STATE_DIR", state.toString());
        env.put("TOOLSMITH_DB_NAME", DATABASE);
        env.put("TOOLSMITH_LIBRARIAN_PORT", String.valueOf(LIBRARIAN_PORT));
        env.put("TOOLSMITH_CAPABILITIES_PORT", String.valueOf(CAPABILITIES_PORT));
        env.put("TOOLSMITH_ENGINEER_PORT", String.valueOf(ENGINEER_PORT));
        env.put("TOOLSMITH_UI_PORT", String.valueOf(UI_PORT));
        env.put("TOOLSMITH_KAFKA_PORT", String.valueOf(KAFKA_PORT));
        env.put("TOOLSMITH_KAFKA_CONTROLLER_PORT", String.valueOf(KAFKA_PORT + 1));
        // Crash tests: a claim left IN_PROGRESS by a killed instance is answered within seconds, not minutes.
        env.put("TOOLSMITH_STEPS_ABANDONED_AFTER", "20s");
        env.put("TOOLSMITH_STEPS_SWEEP_EVERY", "5s");
        // A killed instance's consumer-group membership ends when its session times out (45 s by default): its
        // partitions then move to the survivors (ScaleOutIT) or to its restarted self (ResilienceIT). Every
        // service applies kafka.* to all its Kafka clients; producers ignore it.
        env.put("KAFKA_SESSION_TIMEOUT_MS", "10000");
        // A build left unfinished by a killed engineer is resumed once it has not moved for this long (60 s by
        // default; ResilienceIT). One engineer runs here, and its scan never claims a build it is still running.
        env.put("TOOLSMITH_ENGINEER_RESUME_AFTER", "15s");
        // The services share two cores with the broker, this JVM and one another for a few minutes: C1-compiled code
        // and the serial collector cost them less CPU than C2's compilations and G1's threads (ForgedBuildIT,
        // ResilienceIT and ScaleOutIT together: 336 s -> 274 s). Nothing a test attacks depends on either.
        env.put("TOOLSMITH_JAVA_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        // Spans go to each service's log, so DemoIT can follow one step's trace across the processes.
        env.put("TOOLSMITH_TRACING_EXPORTER", "logging");
        return env;
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private Map<String, String> readCredentials() throws IOException {
        return readCredentials(state.resolve("credentials.env"));
    }

    /** The {@code NAME=value} lines of a launcher's credentials file. */
    static Map<String, String> readCredentials(Path file) throws IOException {
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }
}
