package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the relay is woken: by this instance's writers directly, by anyone's {@code NOTIFY} through its
 * listener, and never by polling here (the poll interval is an hour), so an event that arrives was woken.
 */
@QuarkusTest
@TestProfile(OutboxWakeUpTest.HourlyPolling.class)
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class OutboxWakeUpTest {

    public static class HourlyPolling implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("toolsmith.outbox.poll-interval", "1h");
        }
    }

    @Inject
    Outbox outbox;

    @Inject
    OutboxRelay relay;

    @AfterEach
    void relayRunsAgain() {
        relay.start();
    }

    @Test
    void aRowCommittedWithoutNotifyIsPublishedWhenTheLocalWriterWakesTheRelay() throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(outbox::relayIsLocal);
        String key = "local-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            // The relay saves its cursor within its save interval of the last event and then sleeps for the
            // poll interval (an hour): from then on only a wake-up makes it look at the table.
            await().atMost(Duration.ofSeconds(10)).until(() -> relay.asleepForAtLeast(Duration.ofMinutes(30).toMillis()));
            insertWithoutNotify(outbox.prepare(Topics.NOTIFICATIONS, key, notification(key)));

            assertThat(reader.pollFor(Duration.ofSeconds(2))).as("nothing woke the relay yet")
                    .noneMatch(r -> key.equals(r.key()));

            outbox.committed();

            assertThat(reader.awaitMatching(r -> key.equals(r.key()), Duration.ofSeconds(10))).hasSize(1);
        }
    }

    @Test
    void aNotifyingWriterWakesTheRelayThroughItsListenerAlsoAfterTheListenerLostItsConnection() throws Throwable {
        await().atMost(Duration.ofSeconds(20)).until(outbox::relayIsLocal);
        String first = "notified-" + UUID.randomUUID();
        String second = "notified-again-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            appendWithNotify(first);
            assertThat(reader.awaitMatching(r -> first.equals(r.key()), Duration.ofSeconds(10))).hasSize(1);

            try (Connection db = OutboxTest.database(); var kill = db.createStatement()) {
                kill.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN outbox_%'"
                        + " AND datname = current_database() AND pid <> pg_backend_pid()");
            }
            appendWithNotify(second);

            assertThat(reader.awaitMatching(r -> second.equals(r.key()), Duration.ofSeconds(15))).hasSize(1);
        }
    }

    @Test
    void theRelayIsLocalOnlyWhileItLeads() {
        await().atMost(Duration.ofSeconds(20)).until(outbox::relayIsLocal);
        relay.stop();
        assertThat(outbox.relayIsLocal()).as("a stopped relay is not woken locally: writers notify").isFalse();
        relay.start();
        await().atMost(Duration.ofSeconds(20)).until(outbox::relayIsLocal);
    }

    private void appendWithNotify(String key) throws Throwable {
        VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(
                () -> outbox.append(Topics.NOTIFICATIONS, key, notification(key))));
    }

    private static void insertWithoutNotify(OutboxEvent row) throws SQLException {
        try (Connection db = OutboxTest.database()) {
            OutboxTest.insertRaw(db, row);
        }
    }

    private static Notification notification(String subject) {
        return new Notification(UUID.randomUUID().toString(), Notification.Kind.NEW_PENDING_TOOLS,
                Notification.Severity.INFO, "wake-up test", null, subject, Instant.now());
    }
}
