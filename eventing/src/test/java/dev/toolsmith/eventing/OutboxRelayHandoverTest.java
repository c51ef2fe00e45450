package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two relays on one schema, as two replicas of a service run them: one publishes, the other stands by; when
 * the publishing one stops, the other takes over from the saved cursor, and hands back the same way. No
 * event is lost in a handover and none is published twice. (ScaleOutIT does this with whole services and a
 * killed process; this is the relay alone, in one JVM.)
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class OutboxRelayHandoverTest {

    private static final Duration SOON = Duration.ofSeconds(20);

    @Inject
    Outbox outbox;

    @Inject
    OutboxRelay relay;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EventingConfig config;

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    private OutboxRelay second;

    @AfterEach
    void onlyTheServicesRelayRunsAgain() {
        if (second != null) {
            second.stop();
        }
        relay.start();
    }

    @Test
    void aSecondRelayStandsByTakesOverAndHandsBackWithoutLosingOrRepeatingAnEvent() throws Throwable {
        await().atMost(SOON).until(relay::leading);
        second = new OutboxRelay(dataSource, config, kafkaConfig);
        second.start();
        String run = "handover-" + UUID.randomUUID() + "-";
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            append(run + 1);
            assertThat(reader.awaitMatching(r -> (run + 1).equals(r.key()), SOON)).hasSize(1);
            assertThat(second.leading()).as("one schema, one publishing relay: the second stands by").isFalse();

            relay.stop();
            append(run + 2); // committed while no relay leads: it waits in the table for the next one
            await().atMost(SOON).until(second::leading);
            append(run + 3);
            assertThat(reader.awaitMatching(r -> (run + 3).equals(r.key()), SOON)).hasSize(1);

            relay.start();
            second.stop();
            await().atMost(SOON).until(relay::leading);
            append(run + 4);
            assertThat(reader.awaitMatching(r -> (run + 4).equals(r.key()), SOON)).hasSize(1);

            assertThat(reader.pollFor(Duration.ofSeconds(1)))
                    .filteredOn(r -> r.key() != null && r.key().startsWith(run))
                    .extracting(ConsumerRecord::key)
                    .as("every event once, whichever relay published it")
                    .containsExactlyInAnyOrder(run + 1, run + 2, run + 3, run + 4);
        }
    }

    private void append(String key) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> outbox.append(
                Topics.NOTIFICATIONS, key, new Notification(UUID.randomUUID().toString(),
                        Notification.Kind.NEW_PENDING_TOOLS, Notification.Severity.INFO, "handover test", null, key,
                        Instant.now()))));
    }
}
