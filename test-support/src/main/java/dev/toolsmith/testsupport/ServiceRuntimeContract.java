package dev.toolsmith.testsupport;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every Toolsmith service promises at runtime, checked against the real PostgreSQL and Kafka a
 * subclass brings up: readiness covers both, OpenAPI and metrics are served, and the service's own
 * schema holds its Flyway history and the outbox. A subclass names its schema and database.
 */
public abstract class ServiceRuntimeContract {

    protected abstract String schema();

    protected abstract String database();

    @Test
    void isReadyWithItsDatabaseAndKafkaReachable() {
        given().when().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check"));
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        String health = given().when().get("/q/health").then().statusCode(200).extract().asString();
        assertThat(health).containsIgnoringCase("kafka");
    }

    @Test
    void servesItsOpenApiAndMetrics() {
        given().accept("application/json").when().get("/q/openapi").then().statusCode(200)
                .body("openapi", org.hamcrest.Matchers.startsWith("3."));
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void ownsItsSchemaMigratedByFlyway() throws Exception {
        try (Connection connection = DriverManager.getConnection(PostgresTestResource.jdbcUrl(database()),
                PostgresTestResource.user(), PostgresTestResource.password());
                ResultSet tables = connection.getMetaData().getTables(null, schema(), "%", new String[] {"TABLE"})) {
            List<String> names = new ArrayList<>();
            while (tables.next()) {
                names.add(tables.getString("TABLE_NAME"));
            }
            assertThat(names).contains("flyway_schema_history", "outbox_event", "processed_event");
        }
    }
}
