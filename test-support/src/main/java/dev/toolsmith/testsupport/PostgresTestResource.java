package dev.toolsmith.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * A fresh database on the machine's real PostgreSQL for one test run of one module: dropped and
 * created at start, so every run begins from the service's Flyway migrations. Connection settings come
 * from {@code TOOLSMITH_PG_HOST}, {@code TOOLSMITH_PG_PORT}, {@code TOOLSMITH_PG_USER},
 * {@code TOOLSMITH_PG_PASSWORD} (defaults: 127.0.0.1, 5432, toolsmith, toolsmith; the role needs
 * CREATEDB — {@code deploy/local/prepare-db.sh} makes it). Init argument {@code database} names the
 * database (default {@code toolsmith_test}).
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    private static final Map<String, Boolean> CREATED = new HashMap<>();

    private String database = "toolsmith_test";

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", database);
    }

    @Override
    public Map<String, String> start() {
        synchronized (CREATED) {
            if (!CREATED.containsKey(database)) {
                recreate(database);
                CREATED.put(database, true);
            }
        }
        Map<String, String> config = new HashMap<>();
        String hostPort = host() + ":" + port();
        config.put("quarkus.datasource.username", user());
        config.put("quarkus.datasource.password", password());
        config.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPort + "/" + database);
        config.put("quarkus.datasource.reactive.url", "postgresql://" + hostPort + "/" + database);
        return config;
    }

    @Override
    public void stop() {
    }

    /** Drops and creates {@code name}; used by tests that need a database outside Quarkus too. */
    public static void recreate(String name) {
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("test database names are lower-case identifiers: " + name);
        }
        try (Connection admin = DriverManager.getConnection("jdbc:postgresql://" + host() + ":" + port() + "/postgres",
                user(), password()); Statement sql = admin.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            sql.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare test database " + name + " on " + host() + ":" + port()
                    + " as " + user() + " (run deploy/local/prepare-db.sh): " + e.getMessage(), e);
        }
    }

    public static String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host() + ":" + port() + "/" + database;
    }

    public static String host() {
        return env("TOOLSMITH_PG_HOST", "127.0.0.1");
    }

    public static String port() {
        return env("TOOLSMITH_PG_PORT", "5432");
    }

    public static String user() {
        return env("TOOLSMITH_PG_USER", "toolsmith");
    }

    public static String password() {
        return env("TOOLSMITH_PG_PASSWORD", "toolsmith");
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
