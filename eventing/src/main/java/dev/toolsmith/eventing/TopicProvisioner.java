package dev.toolsmith.eventing;

import dev.toolsmith.contracts.event.Topics;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

/**
 * Creates the platform's topics (and their dead-letter topics) at start-up if they are missing, with
 * the configured partitions; {@code tool-catalog} is compacted because the search index of every
 * librarian replica is rebuilt from it. Idempotent: existing topics are left as they are.
 */
@ApplicationScoped
public class TopicProvisioner {

    private static final Logger LOG = Logger.getLogger(TopicProvisioner.class);

    private final EventingConfig config;
    private final Map<String, Object> kafkaConfig;

    public TopicProvisioner(EventingConfig config, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.config = config;
        this.kafkaConfig = kafkaConfig;
    }

    void onStart(@Observes @Priority(1) StartupEvent event) {
        if (config.kafka().provisionTopics()) {
            provision();
        }
    }

    public void provision() {
        // The service's own principal: on an authenticated broker it may describe and create the platform's topics.
        Map<String, Object> props = KafkaConnection.settings(kafkaConfig);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        try (Admin admin = Admin.create(props)) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String topic : platformTopics()) {
                for (String name : List.of(topic, Topics.deadLetter(topic))) {
                    if (!existing.contains(name)) {
                        missing.add(newTopic(name));
                    }
                }
            }
            if (missing.isEmpty()) {
                return;
            }
            try {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e; // another service created them at the same moment otherwise
                }
            }
            LOG.infof("created %d Kafka topics", missing.size());
        } catch (Exception e) {
            throw new IllegalStateException("cannot provision Kafka topics at " + kafkaConfig.get("bootstrap.servers")
                    + ": " + e.getMessage(), e);
        }
    }

    private NewTopic newTopic(String name) {
        NewTopic topic = new NewTopic(name, config.kafka().partitions(), config.kafka().replicationFactor());
        if (name.equals(Topics.TOOL_CATALOG)) {
            topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        return topic;
    }

    static List<String> platformTopics() {
        List<String> topics = new ArrayList<>();
        for (Field field : Topics.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    topics.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return topics;
    }
}
