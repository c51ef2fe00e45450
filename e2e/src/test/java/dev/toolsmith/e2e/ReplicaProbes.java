package dev.toolsmith.e2e;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.utils.Utils;

/**
 * What an operator looks at to see replicas share the work, read from the running platform: who owns which
 * partitions of a consumer group (Kafka's admin API, as the platform's admin principal), which process publishes
 * a service's outbox (the session holding the relay's advisory lock names it in {@code pg_stat_activity}), and
 * a service instance's Prometheus counters, and which steps an instance worked on (the spans it logged: the
 * platform under test runs with {@code TOOLSMITH_TRACING_EXPORTER=logging}).
 */
final class ReplicaProbes implements AutoCloseable {

    private final Admin admin;

    ReplicaProbes(Platform platform) {
        Map<String, Object> config = new HashMap<>(platform.kafkaLogin("admin"));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Platform.kafka());
        admin = Admin.create(config);
    }

    /** How many partitions {@code topic} has. */
    int partitions(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
    }

    /** The partition the producers' default partitioner sends a record with this key to. */
    static int partitionOf(String key, int partitions) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
    }

    /**
     * The partitions of {@code topic} each member of {@code group} owns, for the members that own any (a group
     * may also hold consumers of other topics: the capabilities managers' group reads three).
     */
    List<List<Integer>> owners(String group, String topic) throws Exception {
        return admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group).members().stream()
                .map(MemberDescription::assignment)
                .map(a -> a.topicPartitions().stream().filter(p -> p.topic().equals(topic)).map(p -> p.partition())
                        .sorted().toList())
                .filter(partitions -> !partitions.isEmpty())
                .toList();
    }

    /**
     * The process whose outbox relay publishes {@code schema}'s events now: the session holding a granted advisory
     * lock is named {@code outbox-relay <schema> <pid>@<host>} while its turn lasts (OutboxRelay).
     */
    static OptionalLong relayHolder(String schema) throws SQLException {
        try (Connection db = Platform.database();
                PreparedStatement holder = db.prepareStatement("""
                        SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                        WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()
                          AND a.application_name LIKE ?""")) {
            holder.setString(1, "outbox-relay " + schema + " %");
            try (ResultSet rows = holder.executeQuery()) {
                if (!rows.next()) {
                    return OptionalLong.empty();
                }
                String name = rows.getString(1);
                String processName = name.substring(("outbox-relay " + schema + " ").length());
                return OptionalLong.of(Long.parseLong(processName.substring(0, processName.indexOf('@'))));
            }
        }
    }

    /** The sum of the Prometheus series {@code name} on the instance at {@code port} whose labels contain {@code labels}. */
    static double metric(int port, String name, String labels) {
        String body = given().get("http://127.0.0.1:" + port + "/q/metrics").then().statusCode(200).extract().asString();
        return body.lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .filter(line -> line.contains(labels))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /**
     * The ids of the steps starting with {@code stepIdPrefix} for which an instance's log holds a span named
     * {@code spanName} (or starting with it, for {@code "step "}) of kind CONSUMER: read from Kafka and worked on
     * there ({@code step <VERB>} in a capabilities manager, {@code search} in a librarian).
     */
    static Set<String> stepsWithSpan(Path log, String spanName, String stepIdPrefix) throws IOException {
        Pattern span = Pattern.compile(" step=(" + Pattern.quote(stepIdPrefix) + "\\S*) .*'" + Pattern.quote(spanName)
                + "[^']*' : [0-9a-f]{32} [0-9a-f]{16} CONSUMER ");
        Set<String> steps = new HashSet<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher matcher = span.matcher(line);
            if (matcher.find()) {
                steps.add(matcher.group(1));
            }
        }
        return steps;
    }

    @Override
    public void close() {
        admin.close();
    }
}
