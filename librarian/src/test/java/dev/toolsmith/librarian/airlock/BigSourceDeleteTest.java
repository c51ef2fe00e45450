package dev.toolsmith.librarian.airlock;

import static dev.toolsmith.librarian.airlock.AirlockFixtures.ADMIN;
import static dev.toolsmith.librarian.airlock.AirlockFixtures.VIEWER;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Deleting sources with a large review queue, several at once, through the REST API: every delete answers
 * 204 and takes its candidates (the database cascade) with it, none is rolled back behind the caller's back.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = BigSourceDeleteTest.DATABASE))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BigSourceDeleteTest {

    /** The module's test database (the same resources as the other airlock tests: no extra Quarkus start). */
    static final String DATABASE = "toolsmith_test_librarian";
    private static final Logger LOG = Logger.getLogger(BigSourceDeleteTest.class);
    private static final int SOURCES = 8;
    private static final int CANDIDATES = 1_500;
    private static final int PARALLEL = 4;

    /**
     * Before the bulk delete, removing the loaded entity failed one of these (HR000069) and hung others until
     * the client gave up, their transactions then rolled back (HR000090).
     */
    @Test
    @Order(1)
    void bigSourcesDeletedConcurrentlyAreAllGoneWithTheirCandidates() throws Exception {
        List<UUID> sources = new ArrayList<>();
        for (int i = 0; i < SOURCES; i++) {
            sources.add(seedSource("big " + i, CANDIDATES));
        }
        assertThat(candidatesOf(sources)).isEqualTo((long) SOURCES * CANDIDATES);

        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (UUID id : sources) {
                answers.add(pool.submit(() -> {
                    long started = System.nanoTime();
                    Response answer = given().header("X-API-Key", ADMIN).delete("/tools/sources/" + id);
                    LOG.infof("DELETE of a source of %d candidates: %d ms (HTTP %d)", CANDIDATES,
                            (System.nanoTime() - started) / 1_000_000, answer.statusCode());
                    return answer;
                }));
            }
            for (int i = 0; i < sources.size(); i++) {
                Response answer = answers.get(i).get();
                assertThat(answer.statusCode()).as("DELETE %s answered %s", sources.get(i), answer.asString())
                        .isEqualTo(204);
            }
        } finally {
            pool.shutdownNow();
        }

        for (UUID id : sources) {
            given().header("X-API-Key", VIEWER).get("/tools/sources/" + id).then().statusCode(404);
        }
        assertThat(candidatesOf(sources)).isZero();
        assertThat(deletionsAudited(sources)).isEqualTo(SOURCES);
    }

    /**
     * A delete that cannot get the locks of its source's candidates (another transaction holds one) gives up
     * after the lock timeout with a 503 naming why and when to retry, removes nothing, and succeeds once the
     * other work is done.
     */
    @Test
    @Order(2)
    void aDeleteBlockedByOtherWorkOnItsCandidatesAnswers503AndRemovesNothing() throws Exception {
        UUID source = seedSource("locked", 20);
        try (Connection other = database()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement("SELECT id FROM airlock_candidate WHERE source_id = ?"
                    + " LIMIT 1 FOR UPDATE")) {
                lock.setObject(1, source);
                lock.executeQuery().close();
            }
            given().header("X-API-Key", ADMIN).delete("/tools/sources/" + source).then().statusCode(503)
                    .header("Retry-After", "5")
                    .body("error", org.hamcrest.Matchers.containsString("source " + source + " was not deleted"))
                    .body("error", org.hamcrest.Matchers.containsString("try again"));
            assertThat(candidatesOf(List.of(source))).isEqualTo(20);
            given().header("X-API-Key", VIEWER).get("/tools/sources/" + source).then().statusCode(200);
            other.rollback();
        }
        given().header("X-API-Key", ADMIN).delete("/tools/sources/" + source).then().statusCode(204);
        assertThat(candidatesOf(List.of(source))).isZero();
        assertThat(deletionsAudited(List.of(source))).isEqualTo(1);
    }

    private static Connection database() throws SQLException {
        Connection db = DriverManager.getConnection(PostgresTestResource.jdbcUrl(DATABASE), PostgresTestResource.user(),
                PostgresTestResource.password());
        db.createStatement().execute("SET search_path TO librarian");
        return db;
    }

    /** A scanned source with {@code candidates} pending candidates without vectors, as one JDBC batch. */
    private static UUID seedSource(String name, int candidates) throws SQLException {
        UUID id = UUID.randomUUID();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        try (Connection db = database()) {
            db.setAutoCommit(false);
            try (PreparedStatement source = db.prepareStatement("INSERT INTO airlock_source (id, name, type, url,"
                    + " interval_seconds, status, last_scan_at, next_scan_at, found_count, new_count, created_by)"
                    + " VALUES (?, ?, 'openapi', ?, 86400, 'OK', ?, ?, ?, ?, 'admin')")) {
                source.setObject(1, id);
                source.setString(2, name);
                source.setString(3, "https://203.0.113.10/" + id + ".yaml");
                source.setObject(4, now);
                source.setObject(5, now.plusDays(1));
                source.setInt(6, candidates);
                source.setInt(7, candidates);
                source.executeUpdate();
            }
            try (PreparedStatement candidate = db.prepareStatement("INSERT INTO airlock_candidate (id, source_id,"
                    + " operation_key, revision, tool_id, status, content_hash, verb, name, risk, manifest, warnings)"
                    + " VALUES (?, ?, ?, 1, ?, 'PENDING', ?, ?, ?, 'READ_ONLY', CAST(? AS jsonb), '[]')")) {
                for (int n = 0; n < candidates; n++) {
                    String verb = "LIST_ITEMS_" + n;
                    String tool = "big." + id.toString().substring(0, 8) + ".list_items_" + n;
                    candidate.setObject(1, UUID.randomUUID());
                    candidate.setObject(2, id);
                    candidate.setString(3, "GET /items" + n);
                    candidate.setString(4, tool);
                    candidate.setString(5, "sha256:" + n);
                    candidate.setString(6, verb);
                    candidate.setString(7, "list_items_" + n);
                    candidate.setString(8, "{\"id\": \"" + tool + "\", \"verb\": \"" + verb + "\", \"description\":"
                            + " \"List the items of kind " + n + "\"}");
                    candidate.addBatch();
                }
                candidate.executeBatch();
            }
            db.commit();
        }
        return id;
    }

    private static long candidatesOf(List<UUID> sources) throws SQLException {
        try (Connection db = database();
                PreparedStatement count = db.prepareStatement("SELECT count(*) FROM airlock_candidate WHERE source_id"
                        + " = ANY (?)")) {
            count.setArray(1, db.createArrayOf("uuid", sources.toArray()));
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static long deletionsAudited(List<UUID> sources) throws SQLException {
        try (Connection db = database();
                PreparedStatement count = db.prepareStatement("SELECT count(*) FROM airlock_audit WHERE action ="
                        + " 'SOURCE_DELETED' AND subject_id = ANY (?)")) {
            count.setArray(1, db.createArrayOf("varchar", sources.stream().map(UUID::toString).toArray()));
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
