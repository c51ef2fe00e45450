package dev.toolsmith.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.tracing.Tracing;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.opentelemetry.api.trace.Span;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class, initArgs = @ResourceArg(name = "database", value = "toolsmith_test_eventing"))
class OutboxTest {

    @Inject
    Outbox outbox;

    @Inject
    OutboxRelay relay;

    @Inject
    Tracing tracing;

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @AfterEach
    void relayRunsAgain() {
        relay.start();
    }

    @Test
    void anEventCommittedWhileTheRelayIsStoppedArrivesOnceAfterItRestarts() {
        String widgetId = "w-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            relay.stop();
            EventEnvelope event = commitChangeWithEvent(widgetId, false);

            assertThat(reader.pollFor(Duration.ofSeconds(2)))
                    .as("nothing may be published while the relay is stopped")
                    .noneMatch(r -> widgetId.equals(r.key()));

            relay.start();

            List<ConsumerRecord<String, byte[]>> arrived = reader.awaitMatching(r -> widgetId.equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(arrived).hasSize(1);
            assertThat(reader.envelopes()).anyMatch(e -> e.id().equals(event.id()));
            assertThat(reader.headersOf(arrived.get(0)).get("content-type")).startsWith("application/cloudevents+json");
            // appended outside any traced unit of work: no trace context anywhere
            assertThat(reader.headersOf(arrived.get(0))).doesNotContainKey("traceparent");
            assertThat(event.traceparent()).isNull();
            // and it stays exactly once: the relay marked it published and does not send it again
            assertThat(reader.pollFor(Duration.ofSeconds(2))).filteredOn(r -> widgetId.equals(r.key())).hasSize(1);
        }
    }

    @Test
    void manyEventsOfOneKeyArriveOnceEachAndInCommitOrder() throws Throwable {
        // The test profile reads 20 rows at a time, so 300 events of one key committed one after another
        // cross many batches, some read while later rows are still committing.
        String key = "ordered-" + UUID.randomUUID();
        int count = 300;
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            for (int i = 0; i < count; i++) {
                String title = "event " + i;
                VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> outbox.append(
                        Topics.NOTIFICATIONS, key, notification(key, title))));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> reader.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> key.equals(r.key())).count() >= count);

            List<String> titles = reader.pollFor(Duration.ofSeconds(1)).stream().filter(r -> key.equals(r.key()))
                    .map(r -> kafka.codec().openEnvelope(r.value()).data().path("title").asText()).toList();
            assertThat(titles).as("each event once, in commit order")
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, count).mapToObj(i -> "event " + i).toList());
        }
        assertThat(unpublishedRows()).as("the relay's cursor passed every row").isZero();
    }

    /** The test database, in the eventing schema (other outbox tests share it). */
    static java.sql.Connection database() throws java.sql.SQLException {
        java.sql.Connection db = java.sql.DriverManager.getConnection(PostgresTestResource.jdbcUrl("toolsmith_test_eventing"),
                PostgresTestResource.user(), PostgresTestResource.password());
        try (var schema = db.createStatement()) {
            schema.execute("SET search_path = eventing_test");
        }
        return db;
    }

    private static long unpublishedRows() throws java.sql.SQLException {
        try (var db = database();
                var count = db.prepareStatement("SELECT count(*) FROM outbox_event o, outbox_cursor c "
                        + "WHERE (o.tx_id, o.position) > (c.tx_id, c.position)");
                var row = count.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    /** With several replicas, an operator (and ScaleOutIT) finds the replica that publishes in pg_stat_activity. */
    @Test
    void theSessionHoldingTheRelaysLockNamesThisProcess() throws Exception {
        String self = "outbox-relay eventing_test " + ProcessHandle.current().pid() + "@";
        await().atMost(Duration.ofSeconds(10)).until(relay::leading);
        try (var db = database();
                var holder = db.prepareStatement("SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                        + "USING (pid) WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database() "
                        + "AND a.application_name LIKE 'outbox-relay %'");
                var rows = holder.executeQuery()) {
            assertThat(rows.next()).as("a session holds the relay's lock and says whose it is").isTrue();
            assertThat(rows.getString(1)).startsWith(self);
        }
        relay.stop();
        try (var db = database();
                var named = db.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE ?")) {
            named.setString(1, self + "%");
            try (var rows = named.executeQuery()) {
                rows.next();
                assertThat(rows.getLong(1)).as("the name goes with the turn (DISCARD ALL), not with the pooled session")
                        .isZero();
            }
        }
    }

    @Test
    void anEventWaitsWhileAnOlderTransactionRunsThenFollowsThatTransactionsEvent() throws Throwable {
        String key = "held-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS);
                var older = database()) {
            older.setAutoCommit(false);
            // The older transaction writes its event first (so it has the smaller transaction id) and commits
            // last, without a NOTIFY: the relay must notice the commit by itself.
            insertRaw(older, outbox.prepare(Topics.NOTIFICATIONS, key, notification(key, "older")));
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> outbox.append(
                    Topics.NOTIFICATIONS, key, notification(key, "younger"))));

            assertThat(reader.pollFor(Duration.ofSeconds(2))).as("the younger event waits for the older transaction")
                    .noneMatch(r -> key.equals(r.key()));

            older.commit();
            await().atMost(Duration.ofSeconds(20)).until(() -> reader.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> key.equals(r.key())).count() >= 2);
            // the reader returns every record it has seen so far
            List<ConsumerRecord<String, byte[]>> arrived = reader.pollFor(Duration.ofSeconds(1)).stream()
                    .filter(r -> key.equals(r.key())).toList();
            assertThat(arrived).extracting(r -> kafka.codec().openEnvelope(r.value()).data().path("title").asText())
                    .containsExactly("older", "younger");
        }
    }

    @Test
    void aTransactionRunningInAnotherDatabaseOfTheClusterDoesNotHoldEventsBack() throws Throwable {
        String other = "toolsmith_test_eventing_other";
        PostgresTestResource.recreate(other);
        String key = "other-db-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS);
                var elsewhere = java.sql.DriverManager.getConnection(PostgresTestResource.jdbcUrl(other),
                        PostgresTestResource.user(), PostgresTestResource.password())) {
            elsewhere.setAutoCommit(false);
            try (var takeId = elsewhere.createStatement()) {
                takeId.execute("SELECT pg_current_xact_id()"); // an older transaction id, held open over there
            }
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> outbox.append(
                    Topics.NOTIFICATIONS, key, notification(key, "while another database works"))));

            assertThat(reader.awaitMatching(r -> key.equals(r.key()), Duration.ofSeconds(10))).hasSize(1);
            elsewhere.rollback();
        }
    }

    /** Inserts {@code row} as a writer that does not notify the relay. */
    static void insertRaw(java.sql.Connection db, OutboxEvent row) throws java.sql.SQLException {
        try (var insert = db.prepareStatement("INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, "
                + "created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
            bindRow(insert, row);
            insert.executeUpdate();
        }
    }

    /** A row as a restore from another cluster brings it: its old transaction id and position. */
    private static void insertRestored(java.sql.Connection db, OutboxEvent row, long txId, long position)
            throws java.sql.SQLException {
        try (var insert = db.prepareStatement("INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, "
                + "created_at, tx_id, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            bindRow(insert, row);
            insert.setLong(7, txId);
            insert.setLong(8, position);
            insert.executeUpdate();
        }
    }

    private static void bindRow(java.sql.PreparedStatement insert, OutboxEvent row) throws java.sql.SQLException {
        insert.setObject(1, row.id);
        insert.setString(2, row.topic);
        insert.setString(3, row.messageKey);
        insert.setString(4, row.eventType);
        insert.setString(5, row.envelope);
        insert.setObject(6, row.createdAt);
    }

    @Test
    void afterARestoreIntoAnotherClusterOldWaitingRowsAndNewRowsArePublishedAndOldPublishedOnesAreNot() throws Throwable {
        String key = "restored-" + UUID.randomUUID();
        // The old cluster had counted far past this one's transaction ids.
        long oldTx = 1_000_000_000_000L;
        long position = -7_000_000_000_000L - System.nanoTime() % 1_000_000;
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS);
                var db = database()) {
            relay.stop();
            insertRestored(db, outbox.prepare(Topics.NOTIFICATIONS, key, notification(key, "old, published")), oldTx, position);
            insertRestored(db, outbox.prepare(Topics.NOTIFICATIONS, key, notification(key, "old, waiting")), oldTx + 1,
                    position + 1);
            try (var cursor = db.prepareStatement("UPDATE outbox_cursor SET tx_id = ?, position = ?")) {
                cursor.setLong(1, oldTx);
                cursor.setLong(2, position);
                cursor.executeUpdate();
            }
            // written by this cluster after the restore, before any relay ran: its transaction id is far lower
            VertxContextSupport.subscribeAndAwait(() -> Panache.withTransaction(() -> outbox.append(
                    Topics.NOTIFICATIONS, key, notification(key, "new"))));

            relay.start();

            await().atMost(Duration.ofSeconds(20)).until(() -> reader.pollFor(Duration.ofMillis(200)).stream()
                    .filter(r -> key.equals(r.key())).count() >= 2);
            List<String> titles = reader.pollFor(Duration.ofSeconds(2)).stream().filter(r -> key.equals(r.key()))
                    .map(r -> kafka.codec().openEnvelope(r.value()).data().path("title").asText()).toList();
            assertThat(titles).containsExactly("old, waiting", "new");
        }
        assertThat(unpublishedRows()).isZero();
    }

    @Test
    void theRelayReadsThePrimaryKeyFromItsCursorEvenWhenTheOutboxHasNoStatistics() throws Exception {
        // A temporary copy of the outbox shadows the real one in this session: autovacuum never analyses it, as
        // a new or just emptied outbox (or one on a server with autovacuum off) has no statistics yet.
        try (var db = database()) {
            try (var setup = db.createStatement()) {
                setup.execute("CREATE TEMPORARY TABLE outbox_event (LIKE eventing_test.outbox_event INCLUDING ALL)");
                setup.execute("SET search_path = pg_temp, eventing_test");
                setup.execute("INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, tx_id, position) "
                        + "SELECT gen_random_uuid(), 'notifications', 'k', 't', repeat('x', 200), 1, p "
                        + "FROM generate_series(1, 10000) AS p");
            }
            assertThat(relayReadPlan(db, "force_custom_plan")).as("without the relay's session settings (the trap this "
                    + "guards against)").contains("Seq Scan");
            RelaySession.begin(db, "eventing_test");
            for (String planning : List.of("force_custom_plan", "force_generic_plan")) {
                assertThat(relayReadPlan(db, planning)).as(planning).contains("Index Scan using outbox_event_pkey")
                        .doesNotContain("Seq Scan").doesNotContain("Sort");
            }
        }
    }

    /** The plan of the relay's read from position (1, 9000), planned for these parameters or for any. */
    private static String relayReadPlan(java.sql.Connection db, String planCacheMode) throws java.sql.SQLException {
        String numbered = OutboxRelay.READ;
        for (int parameter = 1; numbered.contains("?"); parameter++) {
            numbered = numbered.replaceFirst("\\?", "\\$" + parameter);
        }
        String name = "relay_read_" + System.nanoTime();
        try (var statement = db.createStatement()) {
            statement.execute("PREPARE " + name + " (bigint, bigint, int) AS " + numbered);
            statement.execute("SET plan_cache_mode = " + planCacheMode);
            StringBuilder plan = new StringBuilder();
            try (var rows = statement.executeQuery("EXPLAIN EXECUTE " + name + "(1, 9000, 500)")) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    @Test
    void retentionDeletesOnlyPublishedRowsPastItInBoundedChunks() throws Exception {
        // Rows of a made-up transaction 1, far behind the relay's cursor, so the running relay leaves them alone
        // (its own retention is an hour; these are 30 minutes old).
        long base = -5_000_000_000L - System.nanoTime() % 1_000_000;
        try (var db = database()) {
            try (var insert = db.prepareStatement("INSERT INTO outbox_event (id, topic, message_key, event_type, envelope, "
                    + "created_at, tx_id, position) VALUES (gen_random_uuid(), 'notifications', 'k', 't', '{}', "
                    + "now() - make_interval(mins => ?), 1, ?)")) {
                int[][] rows = {{30, 0}, {30, 1}, {0, 2}, {30, 3}, {30, 4}}; // age in minutes, offset
                for (int[] row : rows) {
                    insert.setInt(1, row[0]);
                    insert.setLong(2, base + row[1]);
                    insert.executeUpdate();
                }
            }
            OutboxRetention retention = new OutboxRetention(Duration.ofMinutes(10), Duration.ofDays(7));
            // published up to offset 3: offset 4 is old but unpublished; offset 2 is published but young
            assertThat(retention.deleteOutboxRows(db, new OutboxPosition(1, base + 3))).isEqualTo(3);
            try (var left = db.prepareStatement("SELECT position - ? FROM outbox_event WHERE tx_id = 1 AND position BETWEEN ? AND ? "
                    + "ORDER BY position")) {
                left.setLong(1, base);
                left.setLong(2, base);
                left.setLong(3, base + 4);
                try (var rows = left.executeQuery()) {
                    List<Long> offsets = new java.util.ArrayList<>();
                    while (rows.next()) {
                        offsets.add(rows.getLong(1));
                    }
                    assertThat(offsets).containsExactly(2L, 4L);
                }
            }
        }
    }

    @Test
    void anEventAppendedInATracedUnitOfWorkCarriesItsTraceInTheEnvelopeAndAHeader() {
        String widgetId = "w-" + UUID.randomUUID();
        Span span = tracing.startFromTraceparent("test work", "00-" + TRACE_ID + "-00f067aa0ba902b7-01");
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            EventEnvelope event = commitChangeWithEvent(widgetId, false, span);

            List<ConsumerRecord<String, byte[]>> arrived = reader.awaitMatching(r -> widgetId.equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(arrived).hasSize(1);
            EventEnvelope published = kafka.codec().openEnvelope(arrived.get(0).value());
            assertThat(published.traceparent())
                    .isEqualTo(event.traceparent())
                    .isEqualTo("00-" + TRACE_ID + "-" + span.getSpanContext().getSpanId() + "-01");
            assertThat(reader.headersOf(arrived.get(0)).get("traceparent")).isEqualTo(published.traceparent());
        } finally {
            span.end();
        }
    }

    @Test
    void aRolledBackChangePublishesNothing() throws Exception {
        String widgetId = "w-" + UUID.randomUUID();
        String later = "after-rollback-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader reader = kafka.reader(Topics.NOTIFICATIONS)) {
            assertThatThrownBy(() -> commitChangeWithEvent(widgetId, true))
                    .as("the transaction fails after the outbox append")
                    .hasRootCauseInstanceOf(IllegalStateException.class)
                    .hasRootCauseMessage("boom");
            assertThat(rowsOf(widgetId)).as("the append went with the rollback").isZero();

            // The relay publishes in commit order: once an event committed after the rollback has arrived,
            // anything of the rolled-back transaction would have been published before it.
            commitChangeWithEvent(later, false);
            assertThat(reader.awaitMatching(r -> later.equals(r.key()), Duration.ofSeconds(20))).hasSize(1);
            assertThat(reader.pollFor(Duration.ZERO)).noneMatch(r -> widgetId.equals(r.key()));
        }
    }

    /** Outbox rows written for {@code key}, published or not. */
    private static long rowsOf(String key) throws java.sql.SQLException {
        try (var db = database();
                var count = db.prepareStatement("SELECT count(*) FROM outbox_event WHERE message_key = ?")) {
            count.setString(1, key);
            try (var row = count.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    @Test
    void aDuplicateEventDeliveredTwiceIsAppliedOnce() {
        String widgetId = "w-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers())) {
            EventEnvelope event = kafka.send(Topics.PLUGIN_STATUS, widgetId,
                    new PluginStatusChanged(widgetId, PluginStatus.DISABLED, "probe failed", "test", Instant.now()));
            kafka.send(Topics.PLUGIN_STATUS, widgetId, event); // the same id again, as a redelivery would

            await().atMost(Duration.ofSeconds(20)).until(() -> appliedCount(widgetId) >= 1);
            // a different event for the same widget proves the consumer went past the duplicate
            kafka.send(Topics.PLUGIN_STATUS, widgetId,
                    new PluginStatusChanged(widgetId, PluginStatus.ENABLED, "recovered", "test", Instant.now()));
            await().atMost(Duration.ofSeconds(20)).until(() -> "ENABLED".equals(status(widgetId)));

            assertThat(appliedCount(widgetId)).isEqualTo(2);
        }
    }

    @Test
    void aMessageThatBreaksItsContractGoesToTheDeadLetterTopicWithTheReason() {
        String key = "bad-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.PLUGIN_STATUS))) {
            EventEnvelope valid = kafka.codec().envelope(
                    new PluginStatusChanged(key, PluginStatus.DISABLED, null, null, Instant.now()), "/test", key);
            com.fasterxml.jackson.databind.node.ObjectNode broken = kafka.codec().mapper().valueToTree(valid);
            ((com.fasterxml.jackson.databind.node.ObjectNode) broken.get("data")).put("status", "SOMETIMES");
            kafka.sendRaw(Topics.PLUGIN_STATUS, key, broken.toString().getBytes());
            kafka.sendRaw(Topics.PLUGIN_STATUS, key + "-2", "{not json".getBytes());

            List<ConsumerRecord<String, byte[]>> dead = dlq.awaitMatching(r -> (key + "-2").equals(r.key()),
                    Duration.ofSeconds(20));
            assertThat(dead).hasSize(1);
            ConsumerRecord<String, byte[]> contractBreak = dlq.pollFor(Duration.ZERO).stream()
                    .filter(r -> key.equals(r.key())).findFirst().orElseThrow();
            assertThat(dlq.headersOf(contractBreak).get("dead-letter-reason")).contains("/data/status");
            assertThat(dlq.headersOf(dead.get(0)).get("dead-letter-reason")).contains("not valid JSON");
        }
    }

    private EventEnvelope commitChangeWithEvent(String widgetId, boolean failAfterAppend) {
        return commitChangeWithEvent(widgetId, failAfterAppend, null);
    }

    /** {@code span}: the current span of the unit of work that commits, or null for untraced work. */
    private EventEnvelope commitChangeWithEvent(String widgetId, boolean failAfterAppend, Span span) {
        try {
            return doCommit(widgetId, failAfterAppend, span);
        } catch (Throwable e) {
            throw new RuntimeException(e);
        }
    }

    private EventEnvelope doCommit(String widgetId, boolean failAfterAppend, Span span) throws Throwable {
        return VertxContextSupport.subscribeAndAwait(() -> {
            if (span != null) {
                tracing.makeCurrent(span);
            }
            return commit(widgetId, failAfterAppend);
        });
    }

    private Uni<EventEnvelope> commit(String widgetId, boolean failAfterAppend) {
        return Panache.withTransaction(() -> {
            Widget widget = new Widget();
            widget.id = widgetId;
            widget.status = "NEW";
            return widget.persist()
                    .chain(() -> outbox.append(Topics.NOTIFICATIONS, widgetId, notification(widgetId, "widget created")))
                    .chain(envelope -> failAfterAppend
                            ? Uni.createFrom().<EventEnvelope>failure(new IllegalStateException("boom"))
                            : Uni.createFrom().item(envelope));
        });
    }

    private static dev.toolsmith.contracts.event.Notification notification(String subject, String title) {
        return new dev.toolsmith.contracts.event.Notification(UUID.randomUUID().toString(),
                dev.toolsmith.contracts.event.Notification.Kind.NEW_PENDING_TOOLS,
                dev.toolsmith.contracts.event.Notification.Severity.INFO, title, null, subject, Instant.now());
    }

    private int appliedCount(String widgetId) {
        Widget widget = onVertx(() -> Panache.withSession(() -> Widget.<Widget>findById(widgetId)));
        return widget == null ? 0 : widget.appliedCount;
    }

    private String status(String widgetId) {
        Widget widget = onVertx(() -> Panache.withSession(() -> Widget.<Widget>findById(widgetId)));
        return widget == null ? null : widget.status;
    }

    /** Hibernate Reactive needs a Vert.x context; tests run on JUnit's thread. */
    private static <T> T onVertx(java.util.function.Supplier<Uni<T>> work) {
        try {
            return VertxContextSupport.subscribeAndAwait(work);
        } catch (Throwable e) {
            throw new RuntimeException(e);
        }
    }
}
