import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
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

/**
 * Toolsmith's Kafka principals and ACLs, in one place, applied to a broker with the Kafka Admin client:
 * SCRAM-SHA-512 users for every principal (an upsert, so running it again with a new password rotates that
 * password), and exactly the ACLs below for the platform's principals: missing ones are added, ones this
 * table no longer grants are removed. ACLs of other principals (the admin, an operator's own) are left alone.
 *
 * <p>Used by {@code deploy/local/kafka-start.sh} ({@code java -cp <kafka jars> KafkaAccess.java}), the
 * {@code kafka-access} service of docker-compose.yml and the {@code kafka-access} Job of deploy/k8s (the
 * image from deploy/docker/Dockerfile.kafka-access). A single source file on purpose: it needs nothing but
 * kafka-clients, and the local launcher runs it without a build.
 *
 * <pre>
 * java -cp 'kafka-clients.jar:...' KafkaAccess.java (--bootstrap-server H:P | --bootstrap-controller H:P)
 *      [--mechanism SCRAM-SHA-512|PLAIN] [--command-config client.properties]
 * </pre>
 * It connects as {@code TOOLSMITH_KAFKA_ADMIN_USER} (default {@code admin}, a super user of the broker) with
 * {@code TOOLSMITH_KAFKA_ADMIN_PASSWORD}; the passwords of the other principals come from
 * {@code TOOLSMITH_KAFKA_LIBRARIAN_PASSWORD}, {@code TOOLSMITH_KAFKA_CAPABILITIES_MANAGER_PASSWORD},
 * {@code TOOLSMITH_KAFKA_ENGINEER_PASSWORD} and {@code TOOLSMITH_KAFKA_PLANNER_PASSWORD}. A
 * {@code --command-config} file adds or overrides client settings (e.g. TLS). Exits non-zero naming the problem.
 */
public final class KafkaAccess {

    // Every topic of contracts/.../event/Topics.java; each has a dead-letter topic "<topic>.dlq".
    static final List<String> TOPICS = List.of("plan-steps", "step-results", "tool-search-requests",
            "tool-search-replies", "capability-gaps", "tool-approved", "plugin-built", "internal-plugins",
            "tool-catalog", "plugin-status", "notifications");

    /**
     * A principal's rights: the topics it writes, the topics it reads (and so writes their dead-letter topics,
     * as the consuming service does), and the prefix of its consumer groups.
     */
    record Principal(String name, List<String> writes, List<String> reads, String groupPrefix, boolean service) {
    }

    // The one table of who may write and read what; docs/operations.md "Kafka authentication" shows it.
    static final List<Principal> PRINCIPALS = List.of(
            new Principal("librarian",
                    List.of("tool-approved", "tool-catalog", "tool-search-replies", "plugin-status", "notifications"),
                    List.of("tool-catalog", "plugin-built", "internal-plugins", "plugin-status",
                            "tool-search-requests", "capability-gaps", "notifications"),
                    "librarian-", true),
            new Principal("capabilities-manager",
                    List.of("step-results", "tool-search-requests", "capability-gaps", "plugin-status",
                            "notifications", "internal-plugins"),
                    List.of("plan-steps", "tool-search-replies", "plugin-built", "plugin-status"),
                    "capabilities-manager", true),
            new Principal("engineer",
                    List.of("plugin-built"),
                    List.of("tool-approved", "capability-gaps"),
                    "engineer", true),
            // Planners send steps and read results, nothing else; their consumer groups start with "planner-".
            new Principal("planner", List.of("plan-steps"), List.of("step-results"), "planner-", false));

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Exception e) {
            System.err.println("kafka-access: " + e.getMessage());
            System.exit(1);
        }
    }

    static void run(String[] args) throws Exception {
        Map<String, Object> client = clientConfig(args);
        String adminUser = env("TOOLSMITH_KAFKA_ADMIN_USER", "admin");
        Map<String, String> passwords = new TreeMap<>();
        passwords.put(adminUser, requiredEnv("TOOLSMITH_KAFKA_ADMIN_PASSWORD"));
        for (Principal principal : PRINCIPALS) {
            passwords.put(principal.name(), requiredEnv(
                    "TOOLSMITH_KAFKA_" + principal.name().toUpperCase().replace('-', '_') + "_PASSWORD"));
        }
        try (Admin admin = Admin.create(client)) {
            upsertUsers(admin, passwords);
            int[] changed = reconcileAcls(admin, desiredAcls());
            System.out.printf("kafka-access: %d SCRAM-SHA-512 users set; ACLs: %d added, %d removed%n",
                    passwords.size(), changed[0], changed[1]);
        }
    }

    static Map<String, Object> clientConfig(String[] args) throws IOException {
        Map<String, Object> config = new TreeMap<>();
        String mechanism = "SCRAM-SHA-512";
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--bootstrap-server" -> config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, need(args[i], value));
                case "--bootstrap-controller" -> config.put(AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG, need(args[i], value));
                case "--mechanism" -> mechanism = need(args[i], value);
                case "--command-config" -> {
                    Properties file = new Properties();
                    try (Reader reader = Files.newBufferedReader(Path.of(need(args[i], value)))) {
                        file.load(reader);
                    }
                    file.forEach((k, v) -> config.put((String) k, v));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; usage: KafkaAccess (--bootstrap-server H:P | --bootstrap-controller H:P)"
                        + " [--mechanism SCRAM-SHA-512|PLAIN] [--command-config FILE]");
            }
            i++;
        }
        if (!config.containsKey(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)
                && !config.containsKey(AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG)) {
            throw new IllegalArgumentException("give --bootstrap-server or --bootstrap-controller");
        }
        String module = mechanism.equals("PLAIN") ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        config.putIfAbsent("security.protocol", "SASL_PLAINTEXT");
        config.putIfAbsent("sasl.mechanism", mechanism);
        config.putIfAbsent("sasl.jaas.config", module + " required username=\"" + env("TOOLSMITH_KAFKA_ADMIN_USER", "admin")
                + "\" password=\"" + requiredEnv("TOOLSMITH_KAFKA_ADMIN_PASSWORD") + "\";");
        config.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        return config;
    }

    static void upsertUsers(Admin admin, Map<String, String> passwords) throws Exception {
        List<UserScramCredentialAlteration> upserts = new ArrayList<>();
        passwords.forEach((user, password) -> upserts.add(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 8192), password)));
        admin.alterUserScramCredentials(upserts).all().get(60, TimeUnit.SECONDS);
    }

    static Set<AclBinding> desiredAcls() {
        Set<AclBinding> acls = new LinkedHashSet<>();
        for (Principal principal : PRINCIPALS) {
            for (String topic : principal.writes()) {
                acls.add(topicAcl(principal, topic, AclOperation.WRITE));
            }
            for (String topic : principal.reads()) {
                acls.add(topicAcl(principal, topic, AclOperation.READ));
                acls.add(topicAcl(principal, topic + ".dlq", AclOperation.WRITE));
            }
            acls.add(new AclBinding(new ResourcePattern(ResourceType.GROUP, principal.groupPrefix(), PatternType.PREFIXED),
                    entry(principal, AclOperation.READ)));
            if (principal.service()) {
                // Each service's TopicProvisioner creates the platform's topics at start-up if they are missing.
                for (String topic : TOPICS) {
                    for (String name : List.of(topic, topic + ".dlq")) {
                        acls.add(topicAcl(principal, name, AclOperation.DESCRIBE));
                        acls.add(topicAcl(principal, name, AclOperation.CREATE));
                    }
                }
            }
        }
        return acls;
    }

    /** Adds the missing ACLs and removes the platform principals' ACLs the table does not grant; [added, removed]. */
    static int[] reconcileAcls(Admin admin, Set<AclBinding> desired) throws Exception {
        Set<String> managed = new HashSet<>();
        PRINCIPALS.forEach(p -> managed.add("User:" + p.name()));
        Collection<AclBinding> existing = admin.describeAcls(AclBindingFilter.ANY).values().get(60, TimeUnit.SECONDS);
        List<AclBindingFilter> stale = new ArrayList<>();
        for (AclBinding binding : existing) {
            if (managed.contains(binding.entry().principal()) && !desired.contains(binding)) {
                stale.add(new AclBindingFilter(new ResourcePatternFilter(binding.pattern().resourceType(),
                        binding.pattern().name(), binding.pattern().patternType()),
                        new AccessControlEntryFilter(binding.entry().principal(), binding.entry().host(),
                                binding.entry().operation(), binding.entry().permissionType())));
            }
        }
        List<AclBinding> missing = desired.stream().filter(b -> !existing.contains(b)).toList();
        if (!missing.isEmpty()) {
            admin.createAcls(missing).all().get(60, TimeUnit.SECONDS);
        }
        if (!stale.isEmpty()) {
            admin.deleteAcls(stale).all().get(60, TimeUnit.SECONDS);
        }
        return new int[] {missing.size(), stale.size()};
    }

    private static AclBinding topicAcl(Principal principal, String topic, AclOperation operation) {
        return new AclBinding(new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), entry(principal, operation));
    }

    private static AccessControlEntry entry(Principal principal, AclOperation operation) {
        return new AccessControlEntry("User:" + principal.name(), "*", operation, AclPermissionType.ALLOW);
    }

    private static String need(String option, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String requiredEnv(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set");
        }
        if (value.contains("\"") || value.contains("\\")) {
            throw new IllegalArgumentException(name + " may not contain quotes or backslashes (it goes into a JAAS line)");
        }
        return value;
    }
}
