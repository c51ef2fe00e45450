package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.planner.kafka.PlannerKafka;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The local broker scripts keep their promise: {@code kafka-start.sh} is idempotent (starting twice
 * leaves one broker), the broker lets in only clients that authenticate, and {@code kafka-stop.sh} leaves
 * nothing running. A state folder and ports of its own, so a developer's broker and the platform the other
 * end-to-end tests start are untouched.
 */
class KafkaScriptsIT {

    private static final Path HOME = Path.of(System.getProperty("toolsmith.home", "..")).toAbsolutePath().normalize();
    private static final Path STATE = Path.of("target/kafka-scripts").toAbsolutePath();
    private static final int PORT = 29192;
    private static final int CONTROLLER_PORT = 29193;
    // The broker's command line carries its own properties file: that is how the scripts recognise it.
    private static final String MARKER = "kafka.Kafka " + STATE.resolve("kafka/server.properties");
    // Generous: the first start resolves the broker's classpath with Maven.
    private static final int SCRIPT_TIMEOUT_SECONDS = 300;

    @AfterEach
    void stopWhateverIsLeft() throws Exception {
        script("kafka-stop.sh");
    }

    @Test
    void startingTwiceRunsOneBrokerAndStopLeavesNothing() throws Exception {
        Platform.deleteRecursively(STATE);
        // A credentials file from before Kafka authentication: it keeps its entries and gains the Kafka passwords.
        Files.createDirectories(STATE);
        Files.writeString(STATE.resolve("credentials.env"), "ADMIN_API_KEY=kept-as-it-was\n");
        Result first = script("kafka-start.sh");
        assertThat(first.exitCode()).as(first.output()).isZero();
        long pid = brokerPid();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("the started broker").contains(true);

        Result second = script("kafka-start.sh");
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(second.output()).contains("already running");
        assertThat(brokerPid()).as("the pid the scripts remember").isEqualTo(pid);
        assertThat(brokerProcesses()).as("broker processes for this state folder").containsExactly(pid);

        Map<String, String> credentials = credentials();
        assertThat(credentials).containsEntry("ADMIN_API_KEY", "kept-as-it-was")
                .containsKeys("KAFKA_ADMIN_PASSWORD", "KAFKA_LIBRARIAN_PASSWORD", "KAFKA_CAPABILITIES_MANAGER_PASSWORD",
                        "KAFKA_ENGINEER_PASSWORD", "KAFKA_PLANNER_PASSWORD");
        Collection<Node> nodes = describeCluster(PlannerKafka.login("admin", credentials.get("KAFKA_ADMIN_PASSWORD")));
        assertThat(nodes).hasSize(1);
        assertThat(nodes.iterator().next().port()).isEqualTo(PORT);
        // The broker talks only to clients that authenticate.
        assertThatThrownBy(() -> describeCluster(Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000)))
                .as("a client without credentials").isInstanceOf(ExecutionException.class);
        theAccessTableIsExact(credentials);

        Result stop = script("kafka-stop.sh");
        assertThat(stop.exitCode()).as(stop.output()).isZero();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("broker alive after stop").isFalse();
        assertThat(brokerProcesses()).as("broker processes after stop").isEmpty();
        assertThat(STATE.resolve("pids/kafka.pid")).doesNotExist();
        assertThat(portOpen(PORT)).as("port %d open after stop", PORT).isFalse();
        assertThat(portOpen(CONTROLLER_PORT)).as("port %d open after stop", CONTROLLER_PORT).isFalse();

        Result stopAgain = script("kafka-stop.sh");
        assertThat(stopAgain.exitCode()).as("stopping a stopped broker: " + stopAgain.output()).isZero();
    }

    /**
     * KafkaAccess grants exactly its table: an ACL someone added for a platform principal by hand (the planner
     * writing the catalog) is gone after it runs again, and the planner keeps what the table grants.
     */
    private static void theAccessTableIsExact(Map<String, String> credentials) throws Exception {
        AclBinding stray = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "tool-catalog", PatternType.LITERAL),
                new AccessControlEntry("User:planner", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        AclBindingFilter plannerAcls = new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:planner", null, AclOperation.ANY, AclPermissionType.ANY));
        Map<String, Object> admin = new HashMap<>(PlannerKafka.login("admin", credentials.get("KAFKA_ADMIN_PASSWORD")));
        admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + PORT);
        try (Admin client = Admin.create(admin)) {
            client.createAcls(List.of(stray)).all().get(60, TimeUnit.SECONDS);
            assertThat(client.describeAcls(plannerAcls).values().get(60, TimeUnit.SECONDS)).contains(stray);

            ProcessBuilder access = new ProcessBuilder("java", "-cp",
                    Files.readString(STATE.resolve("kafka/classpath.txt")).trim(),
                    HOME.resolve("deploy/kafka/KafkaAccess.java").toString(), "--bootstrap-server", "127.0.0.1:" + PORT)
                    .redirectErrorStream(true).redirectOutput(STATE.resolve("kafka-access.out").toFile());
            for (String principal : List.of("ADMIN", "LIBRARIAN", "CAPABILITIES_MANAGER", "ENGINEER", "PLANNER")) {
                access.environment().put("TOOLSMITH_KAFKA_" + principal + "_PASSWORD",
                        credentials.get("KAFKA_" + principal + "_PASSWORD"));
            }
            Process run = access.start();
            assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(run.exitValue()).as(Files.readString(STATE.resolve("kafka-access.out"))).isZero();

            Collection<AclBinding> after = client.describeAcls(plannerAcls).values().get(60, TimeUnit.SECONDS);
            assertThat(after).doesNotContain(stray)
                    .contains(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "plan-steps", PatternType.LITERAL),
                            new AccessControlEntry("User:planner", "*", AclOperation.WRITE, AclPermissionType.ALLOW)));
            assertThat(after).allSatisfy(acl -> assertThat(acl.entry().operation())
                    .as("planner on %s", acl.pattern()).isIn(AclOperation.READ, AclOperation.WRITE));
        }
    }

    private record Result(int exitCode, String output) {}

    private static Result script(String name) throws IOException, InterruptedException {
        Files.createDirectories(STATE);
        Path log = STATE.resolve(name + ".out");
        ProcessBuilder builder = new ProcessBuilder(HOME.resolve("deploy/local/" + name).toString())
                .directory(HOME.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("TOOLSMITH_STATE_DIR", STATE.toString());
        env.put("TOOLSMITH_KAFKA_PORT", String.valueOf(PORT));
        env.put("TOOLSMITH_KAFKA_CONTROLLER_PORT", String.valueOf(CONTROLLER_PORT));
        Process process = builder.start();
        if (!process.waitFor(SCRIPT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(name + " did not finish within " + SCRIPT_TIMEOUT_SECONDS + " s:\n" + Files.readString(log));
        }
        return new Result(process.exitValue(), Files.readString(log));
    }

    private static long brokerPid() throws IOException {
        return Long.parseLong(Files.readString(STATE.resolve("pids/kafka.pid")).trim());
    }

    /** Every live process whose command line is a broker on this test's state folder, started by anyone. */
    private static List<Long> brokerProcesses() {
        return ProcessHandle.allProcesses()
                .filter(process -> commandLine(process.pid()).contains(MARKER))
                .map(ProcessHandle::pid)
                .toList();
    }

    // /proc rather than ProcessHandle.Info: Info may leave out the arguments of a long command line.
    private static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException gone) {
            return "";
        }
    }

    private static Collection<Node> describeCluster(Map<String, Object> settings) throws Exception {
        Map<String, Object> config = new HashMap<>(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + PORT,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
        config.putAll(settings);
        try (Admin admin = Admin.create(config)) {
            return admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
        }
    }

    private static Map<String, String> credentials() throws IOException {
        return Platform.readCredentials(STATE.resolve("credentials.env"));
    }

    private static boolean portOpen(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            return true;
        } catch (IOException refused) {
            return false;
        }
    }
}
