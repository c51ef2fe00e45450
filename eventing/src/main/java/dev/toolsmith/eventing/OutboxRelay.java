package dev.toolsmith.eventing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.PGStatement;

/**
 * Publishes committed outbox rows to Kafka, oldest first, and marks them published once Kafka has
 * acknowledged them. Delivery is at least once (a crash between the acknowledgement and the mark
 * republishes the same event id; consumers deduplicate by id).
 *
 * <p>One relay per service schema is active at a time: it holds a PostgreSQL advisory lock, so with
 * several replicas the others stand by and the per-key order of events is kept. It sleeps on
 * {@code LISTEN} and is woken by the {@code NOTIFY} that {@link Outbox} issues in each transaction,
 * which PostgreSQL delivers only at commit.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long RETRY_BACKOFF_MS = 1_000;
    private static final long CLEANUP_EVERY_MS = 60_000;
    private static final int DELETES_PER_STATEMENT = 2_000;
    private static final String TRACEPARENT_HEADER = "traceparent";
    private static final ObjectMapper ENVELOPE_READER = new ObjectMapper();

    private final AgroalDataSource dataSource;
    private final EventingConfig config;
    private final Map<String, Object> kafkaConfig;
    private final String channel;
    private final long lockKey;
    private final OutboxVacuum vacuum;

    private volatile boolean running;
    private Thread worker;
    private KafkaProducer<String, byte[]> producer;
    private long lastCleanup;
    private boolean cleanupUnfinished;

    public OutboxRelay(AgroalDataSource dataSource, EventingConfig config,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.dataSource = dataSource;
        this.config = config;
        this.kafkaConfig = kafkaConfig;
        this.channel = channelFor(config.schema());
        this.lockKey = ("toolsmith-outbox-" + config.schema()).hashCode();
        this.vacuum = new OutboxVacuum(dataSource, config.outbox().vacuumAfterRows());
    }

    static String channelFor(String schema) {
        return "outbox_" + schema.replaceAll("[^A-Za-z0-9_]", "_").toLowerCase();
    }

    void onStart(@Observes StartupEvent event) {
        if (config.outbox().relayEnabled()) {
            start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        producer = new KafkaProducer<>(producerProperties());
        worker = new Thread(this::run, "outbox-relay-" + config.schema());
        worker.setDaemon(true);
        worker.start();
    }

    /** Stops publishing; committed rows wait in the table until {@link #start()}. */
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        worker.interrupt();
        try {
            worker.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(java.time.Duration.ofSeconds(5));
    }

    public boolean isRunning() {
        return running;
    }

    private Map<String, Object> producerProperties() {
        Map<String, Object> props = new HashMap<>();
        kafkaConfig.forEach((key, value) -> {
            // Only the connection settings carry over; serialisation and delivery are the relay's own.
            if (key.startsWith("bootstrap.servers") || key.startsWith("security.") || key.startsWith("sasl.")
                    || key.startsWith("ssl.")) {
                props.put(key, value);
            }
        });
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay-" + config.schema() + "-" + UUID.randomUUID());
        return props;
    }

    private void run() {
        while (running) {
            try (Connection listener = dataSource.getConnection()) {
                listener.setAutoCommit(true);
                if (!tryLeadership(listener)) {
                    sleep(config.outbox().pollInterval().toMillis() * 5);
                    continue;
                }
                try (Statement listen = listener.createStatement()) {
                    listen.execute("LISTEN " + channel);
                }
                PGConnection pg = listener.unwrap(PGConnection.class);
                while (running) {
                    drain();
                    cleanUpIfDue();
                    PGNotification[] woken = pg.getNotifications((int) config.outbox().pollInterval().toMillis());
                    LOG.tracef("relay woken by %d notifications", woken == null ? 0 : woken.length);
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    LOG.warnf("outbox relay for %s: %s; retrying in %d ms", config.schema(), e.getMessage(),
                            RETRY_BACKOFF_MS);
                    sleep(RETRY_BACKOFF_MS);
                }
            }
        }
    }

    /** The advisory lock is held by the listener connection and released when it closes. */
    private boolean tryLeadership(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, lockKey);
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    /** Publishes batches until the table holds no committed, unpublished row. */
    void drain() throws SQLException {
        int published;
        do {
            published = publishBatch();
            vacuum.published(published);
        } while (published == config.outbox().batchSize() && running);
    }

    private int publishBatch() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                List<UUID> ids = new ArrayList<>();
                List<Future<?>> acks = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement(
                        "SELECT id, topic, message_key, envelope FROM outbox_event WHERE published_at IS NULL "
                                + "ORDER BY created_at, id LIMIT ? FOR UPDATE SKIP LOCKED")) {
                    plannedPerExecution(select);
                    select.setInt(1, config.outbox().batchSize());
                    try (ResultSet rows = select.executeQuery()) {
                        while (rows.next()) {
                            ids.add(rows.getObject(1, UUID.class));
                            String envelope = rows.getString(4);
                            // An empty envelope is a tombstone (Outbox.appendTombstone): no value, no content type.
                            boolean tombstone = envelope.isEmpty();
                            ProducerRecord<String, byte[]> record = new ProducerRecord<>(rows.getString(2),
                                    rows.getString(3), tombstone ? null : envelope.getBytes(StandardCharsets.UTF_8));
                            if (!tombstone) {
                                record.headers().add("content-type",
                                        "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
                                traceparentOf(envelope).ifPresent(traceparent -> record.headers()
                                        .add(TRACEPARENT_HEADER, traceparent.getBytes(StandardCharsets.UTF_8)));
                            }
                            acks.add(producer.send(record));
                        }
                    }
                }
                if (ids.isEmpty()) {
                    connection.rollback();
                    return 0;
                }
                producer.flush();
                for (Future<?> ack : acks) {
                    ack.get(30, TimeUnit.SECONDS);
                }
                try (Statement asynchronous = connection.createStatement();
                        PreparedStatement mark = connection.prepareStatement(
                                "UPDATE outbox_event SET published_at = now() WHERE id = ANY(?)")) {
                    // A mark lost in a database crash only publishes its events again, which at-least-once
                    // delivery allows: the commit need not wait for the disk.
                    asynchronous.execute("SET LOCAL synchronous_commit = off");
                    plannedPerExecution(mark);
                    mark.setArray(1, connection.createArrayOf("uuid", ids.toArray()));
                    mark.executeUpdate();
                }
                connection.commit();
                return ids.size();
            } catch (InterruptedException e) {
                connection.rollback();
                Thread.currentThread().interrupt();
                return 0;
            } catch (Exception e) {
                connection.rollback();
                throw new SQLException("publishing to Kafka failed: " + e.getMessage(), e);
            }
        }
    }

    /**
     * Has PostgreSQL plan the statement for each execution's own parameters. The outbox starts empty and
     * grows to the retention's worth of published rows; a server-side prepared statement lets PostgreSQL
     * settle on a generic plan, and one settled while the table was small is a sequential scan that then
     * reads every retained row for each batch (seen: 12–48 ms per batch and most of the database's CPU at
     * 1,000 events/s). Planning these short statements each time costs microseconds.
     */
    private static void plannedPerExecution(PreparedStatement statement) throws SQLException {
        statement.unwrap(PGStatement.class).setPrepareThreshold(0);
    }

    /**
     * The envelope's trace context, repeated as a record header for tools that read Kafka headers (our own
     * consumers read it from the envelope). A row whose envelope cannot be read is still published as is.
     */
    static Optional<String> traceparentOf(String envelope) {
        try {
            JsonNode traceparent = ENVELOPE_READER.readTree(envelope).get("traceparent");
            return traceparent != null && traceparent.isTextual() ? Optional.of(traceparent.asText()) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /**
     * Every minute, published rows and remembered event ids past their retention are deleted, a bounded
     * chunk per turn of the relay's loop until none is left: one statement deleting a minute of a busy
     * outbox at once held the relay, and every event behind it, for a long moment.
     */
    private void cleanUpIfDue() throws SQLException {
        long now = System.currentTimeMillis();
        if (!cleanupUnfinished && now - lastCleanup < CLEANUP_EVERY_MS) {
            return;
        }
        lastCleanup = now;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement outbox = connection.prepareStatement(
                        "DELETE FROM outbox_event WHERE id IN (SELECT id FROM outbox_event "
                                + "WHERE published_at < now() - make_interval(secs => ?) LIMIT ?)");
                PreparedStatement inbox = connection.prepareStatement(
                        "DELETE FROM processed_event WHERE (event_id, consumer) IN (SELECT event_id, consumer "
                                + "FROM processed_event WHERE processed_at < now() - make_interval(secs => ?) LIMIT ?)")) {
            plannedPerExecution(outbox);
            plannedPerExecution(inbox);
            outbox.setLong(1, config.outbox().retention().toSeconds());
            outbox.setInt(2, DELETES_PER_STATEMENT);
            inbox.setLong(1, config.outbox().dedupeRetention().toSeconds());
            inbox.setInt(2, DELETES_PER_STATEMENT);
            int outboxRows = outbox.executeUpdate();
            int inboxRows = inbox.executeUpdate();
            cleanupUnfinished = outboxRows == DELETES_PER_STATEMENT || inboxRows == DELETES_PER_STATEMENT;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
