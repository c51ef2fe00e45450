package dev.toolsmith.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * A real single-node KRaft Kafka broker inside the test JVM, on a random port, started once per Quarkus
 * test run. It uses Kafka's own test kit, an internal API: this is the only class that touches it.
 */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    private static KafkaClusterTestKit cluster;

    @Override
    public synchronized Map<String, String> start() {
        if (cluster == null) {
            keepBrokerFromEndingTheJvm();
            try {
                KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                        .setConfigProp("offsets.topic.num.partitions", "1")
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .setConfigProp("auto.create.topics.enable", "true")
                        .build();
                kit.format();
                kit.startup();
                kit.waitForReadyBrokers();
                cluster = kit;
                Runtime.getRuntime().addShutdownHook(new Thread(KafkaTestResource::shutdown));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-process Kafka broker: " + e.getMessage(), e);
            }
        }
        return Map.of("kafka.bootstrap.servers", cluster.bootstrapServers());
    }

    /** The broker outlives a single test class: Quarkus restarts between profiles reuse it. */
    @Override
    public void stop() {
    }

    public static String bootstrapServers() {
        if (cluster == null) {
            throw new IllegalStateException("the Kafka test broker is not started");
        }
        return cluster.bootstrapServers();
    }

    /**
     * The broker shares the test JVM, and Kafka ends its process on a fatal broker error: a log directory that
     * fails while the broker shuts down in the JVM's exit hooks is enough. That would turn a green run into a
     * failed fork ("Error occurred in starting fork", a non-zero exit after every test passed). Kafka's own
     * test harness replaces these procedures the same way; the reason still reaches the build log.
     */
    private static void keepBrokerFromEndingTheJvm() {
        Exit.setExitProcedure((status, message) -> {
            throw new IllegalStateException("in-process Kafka broker asked to exit(" + status + "): " + message);
        });
        Exit.setHaltProcedure((status, message) -> {
            throw new IllegalStateException("in-process Kafka broker asked to halt(" + status + "): " + message);
        });
    }

    private static synchronized void shutdown() {
        if (cluster != null) {
            try {
                cluster.close();
            } catch (Exception ignored) {
                // the JVM is exiting
            }
            cluster = null;
        }
    }
}
