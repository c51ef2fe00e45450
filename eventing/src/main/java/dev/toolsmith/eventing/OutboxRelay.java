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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Publishes committed outbox rows to Kafka in the order of the transactions that wrote them (their ids; for
 * transactions that did not overlap in time, that is commit order) and remembers, in {@code outbox_cursor}, how far
 * Kafka has acknowledged them. Delivery is at least once: a crash between the acknowledgement and the
 * cursor's update republishes the same event ids, and consumers deduplicate by id.
 *
 * <p>Rows are read in (transaction id, position) order, and only rows of transactions older than every
 * transaction still running (the snapshot's {@code xmin}): a younger transaction may still commit a row that
 * sorts before rows already visible, so the relay waits for it rather than pass it by. Nothing is written per
 * row; the cursor is one row updated once per batch.
 *
 * <p>One relay per service schema is active at a time: it holds a PostgreSQL advisory lock on a connection
 * of its own, so with several replicas the others stand by and the per-key order of events is kept. It sleeps
 * until a commit wakes it: a writer of this instance wakes it directly ({@link #wake()}) while it leads, and
 * any other writer by the {@code NOTIFY} that {@link Outbox} issues in its transaction, which PostgreSQL
 * delivers only at commit and {@link OutboxNotifications} turns into the same wake-up.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long RETRY_BACKOFF_MS = 1_000;
    private static final long HELD_BACK_WARNING_MS = 10_000;
    private static final String TRACEPARENT_HEADER = "traceparent";
    private static final ObjectMapper ENVELOPE_READER = new ObjectMapper();

    // Both reads take their horizon in the same snapshot as the rows: the plain one is the oldest transaction
    // id still running. The other leaves out transactions known to run in another database of the cluster
    // (they cannot write this table); it reads pg_stat_activity, so it is used only once rows have been held
    // back for a while. A transaction pg_stat_activity does not place (ended since the snapshot, prepared,
    // hidden) still counts, so neither passes a row it must wait for.
    private static final String ROWS_AFTER_CURSOR = """
            tx_id, position, topic, message_key, envelope
            FROM outbox_event WHERE (tx_id, position) > (?, ?) ORDER BY tx_id, position LIMIT ?""";
    static final String READ = "SELECT (SELECT CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS text) AS bigint)), "
            + ROWS_AFTER_CURSOR;
    private static final String READ_WITHOUT_OTHER_DATABASES = """
            SELECT (SELECT COALESCE(min(CAST(CAST(x AS text) AS bigint)),
                                    CAST(CAST(pg_snapshot_xmax(pg_current_snapshot()) AS text) AS bigint))
                    FROM pg_snapshot_xip(pg_current_snapshot()) AS x
                    WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                      WHERE CAST(CAST(a.backend_xid AS text) AS bigint)
                                                = CAST(CAST(x AS text) AS bigint) % 4294967296
                                        AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))),
            """ + ROWS_AFTER_CURSOR;
    /** Held back this long, the relay asks which running transactions belong to other databases. */
    private static final long PLACE_TRANSACTIONS_AFTER_MS = 50;

    private final AgroalDataSource dataSource;
    private final EventingConfig config;
    private final Map<String, Object> kafkaConfig;
    private final String channel;
    private final long lockKey;
    private final OutboxRetention retention;

    private volatile boolean running;
    private volatile boolean leading;
    /** A permit for each wake-up since the relay last looked; it drains them all before each look. */
    private final Semaphore wakeUps = new Semaphore(0);
    /** When the relay's current sleep ends unless it is woken; 0 while it is not sleeping. */
    private volatile long asleepUntil;
    private Thread worker;
    private KafkaProducer<String, byte[]> producer;

    public OutboxRelay(AgroalDataSource dataSource, EventingConfig config,
            @Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.dataSource = dataSource;
        this.config = config;
        this.kafkaConfig = kafkaConfig;
        this.channel = channelFor(config.schema());
        this.lockKey = ("toolsmith-outbox-" + config.schema()).hashCode();
        checkSettings(config.outbox().batchSize(), config.outbox().pollInterval());
        this.retention = new OutboxRetention(config.outbox().retention(), config.outbox().dedupeRetention());
    }

    /** A setting the relay cannot work with stops the start with a message that names it. */
    static void checkSettings(int batchSize, java.time.Duration pollInterval) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("toolsmith.outbox.batch-size must be at least 1, got " + batchSize);
        }
        if (pollInterval.toMillis() < 1) {
            throw new IllegalArgumentException("toolsmith.outbox.poll-interval must be at least 1ms, got " + pollInterval);
        }
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

    /**
     * True while this instance's relay is the active one. A writer here may then leave {@code NOTIFY} out of
     * its transaction and call {@link #wake()} after the commit: no other session is signalled and commits
     * do not queue on the lock PostgreSQL takes for notifying. Should the relay lose its turn between this
     * answer and the commit (a shutdown, a lost connection), the next active relay finds the event on its
     * first read or, at worst, after one poll interval.
     */
    public boolean leading() {
        return leading;
    }

    /** Makes the relay look at the table now: call it after a commit that wrote events without {@code NOTIFY}. */
    public void wake() {
        wakeUps.release();
    }

    private Map<String, Object> producerProperties() {
        // Only the connection settings carry over; serialisation and delivery are the relay's own.
        Map<String, Object> props = KafkaConnection.settings(kafkaConfig);
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
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try {
                    if (tryLeadership(connection)) {
                        relayWhileLeader(connection);
                    } else {
                        // A standby asks again every poll interval: that bounds how long events wait when the
                        // active relay's instance stops (with five intervals, 1 % of the steps around such a
                        // stop waited over 7 s, two replicas at 500 steps/s).
                        sleep(config.outbox().pollInterval().toMillis());
                    }
                } finally {
                    release(connection);
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

    /** The advisory lock is held by the relay's connection until {@link #release}. */
    private boolean tryLeadership(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, lockKey);
            try (ResultSet result = lock.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    /**
     * The pool keeps the session when the connection is closed: without this its advisory lock, its
     * {@code LISTEN} and its settings would outlive the relay's turn and lock every other replica out.
     */
    private static void release(Connection connection) {
        try (Statement discard = connection.createStatement()) {
            discard.execute("DISCARD ALL");
        } catch (SQLException e) {
            LOG.debugf("relay connection not reset (%s); PostgreSQL releases its lock when the session ends",
                    e.getMessage());
        }
    }

    private void relayWhileLeader(Connection connection) throws SQLException {
        RelaySession.begin(connection, config.schema());
        // Prepared once and, after a few executions, planned once: with sorting ruled out (RelaySession) the
        // generic plan walks the primary key too, so the reads are not parsed and planned each time.
        try (PreparedStatement read = connection.prepareStatement(READ);
                PreparedStatement readPlaced = connection.prepareStatement(READ_WITHOUT_OTHER_DATABASES);
                PreparedStatement save = connection.prepareStatement(RelayCursor.SAVE);
                OutboxNotifications notifications = OutboxNotifications.listen(dataSource, channel, this::wake)) {
            leading = true;
            // Which replica publishes, for operators: a standby that takes over after a crash logs it too.
            LOG.infof("outbox relay for %s: this instance (%s) publishes the outbox now", config.schema(),
                    RelaySession.applicationName(config.schema()));
            OutboxRestore.rebaseIfTransactionIdsWentBack(connection, config.schema());
            RelayCursor cursor = RelayCursor.read(connection, save);
            HeldBack heldBack = new HeldBack(config.outbox().pollInterval().toMillis());
            try {
                while (running) {
                    Batch last;
                    do {
                        last = publishBatch(heldBack.heldLongerThan(PLACE_TRANSACTIONS_AFTER_MS) ? readPlaced : read,
                                cursor.published());
                        cursor.advance(last.reached());
                        cursor.saveIfDue(); // also while draining a backlog, which a crash would republish
                    } while (last.published() == config.outbox().batchSize() && running);
                    retention.cleanUpIfDue(connection, cursor.published());
                    long wait = heldBack.nextWaitMillis(last.horizonReached());
                    sleepUntilWoken(Math.min(wait, cursor.millisUntilDue()));
                }
            } finally {
                cursor.saveOnLeaving();
            }
        } finally {
            leading = false;
        }
    }

    private void sleepUntilWoken(long maxMillis) {
        asleepUntil = System.currentTimeMillis() + maxMillis;
        try {
            wakeUps.tryAcquire(maxMillis, TimeUnit.MILLISECONDS);
            // One look serves every commit that woke the relay so far.
            wakeUps.drainPermits();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            asleepUntil = 0;
        }
    }

    /**
     * Whether the leading relay sleeps for at least {@code millis} more unless a commit wakes it: nothing is
     * due before then (a test waits for this instead of sleeping, to know that only a wake-up makes it look).
     */
    boolean asleepForAtLeast(long millis) {
        long until = asleepUntil;
        return until != 0 && until - System.currentTimeMillis() >= millis;
    }

    /**
     * What one read of the table did: rows published, the position reached, and whether it stopped at a row
     * of a transaction younger than one still running.
     */
    private record Batch(int published, OutboxPosition reached, boolean horizonReached) {
    }

    private Batch publishBatch(PreparedStatement read, OutboxPosition after) throws SQLException {
        List<Future<?>> acks = new ArrayList<>();
        OutboxPosition reached = after;
        boolean horizonReached = false;
        read.setLong(1, after.txId());
        read.setLong(2, after.position());
        read.setInt(3, config.outbox().batchSize());
        try (ResultSet rows = read.executeQuery()) {
            while (rows.next()) {
                long txId = rows.getLong(2);
                if (txId >= rows.getLong(1)) {
                    horizonReached = true;
                    break;
                }
                acks.add(producer.send(record(rows.getString(4), rows.getString(5), rows.getString(6))));
                reached = new OutboxPosition(txId, rows.getLong(3));
            }
        }
        if (acks.isEmpty()) {
            return new Batch(0, after, horizonReached);
        }
        producer.flush();
        try {
            for (Future<?> ack : acks) {
                ack.get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Batch(0, after, horizonReached);
        } catch (Exception e) {
            throw new SQLException("publishing to Kafka failed: " + e.getMessage(), e);
        }
        return new Batch(acks.size(), reached, horizonReached);
    }

    private static ProducerRecord<String, byte[]> record(String topic, String key, String envelope) {
        // An empty envelope is a tombstone (Outbox.appendTombstone): no value, no content type.
        boolean tombstone = envelope.isEmpty();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key,
                tombstone ? null : envelope.getBytes(StandardCharsets.UTF_8));
        if (!tombstone) {
            record.headers().add("content-type",
                    "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
            traceparentOf(envelope).ifPresent(traceparent -> record.headers()
                    .add(TRACEPARENT_HEADER, traceparent.getBytes(StandardCharsets.UTF_8)));
        }
        return record;
    }

    /**
     * How long the relay sleeps between looks at the table. Normally until a commit notifies it (or the poll
     * interval), but rows held back behind a running transaction are rechecked soon, 1 ms then doubling up to
     * the poll interval: that transaction's commit need not notify (it may have written no event). A
     * transaction that holds rows back for long is named in a warning, since events wait for it.
     */
    private final class HeldBack {
        private final long pollMillis;
        private long waitMillis = 1;
        private long since;
        private long warnedAt;

        HeldBack(long pollMillis) {
            this.pollMillis = Math.max(1, pollMillis);
        }

        boolean heldLongerThan(long millis) {
            return since != 0 && System.currentTimeMillis() - since > millis;
        }

        long nextWaitMillis(boolean horizonReached) {
            if (!horizonReached) {
                waitMillis = 1;
                since = 0;
                return pollMillis;
            }
            long now = System.currentTimeMillis();
            if (since == 0) {
                since = now;
            } else if (now - since > HELD_BACK_WARNING_MS && now - warnedAt > HELD_BACK_WARNING_MS) {
                warnedAt = now;
                LOG.warnf("outbox relay for %s: events have waited %d s behind a transaction of this database that is "
                        + "still running (pg_stat_activity shows it as the oldest backend_xid)", config.schema(),
                        (now - since) / 1000);
            }
            long wait = waitMillis;
            waitMillis = Math.min(pollMillis, waitMillis * 2);
            return wait;
        }
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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
