package dev.toolsmith.capabilities.bench;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.execution.PluginOutcome;
import dev.toolsmith.capabilities.policy.Admission;
import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.policy.PolicyGate;
import dev.toolsmith.capabilities.policy.PolicyLeases;
import dev.toolsmith.capabilities.policy.RateLimiter;
import dev.toolsmith.capabilities.policy.UsageReservations;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.capabilities.usage.UsageRecorder;
import dev.toolsmith.capabilities.wrapped.GuardedCalls;
import dev.toolsmith.capabilities.wrapped.SandboxSettings;
import dev.toolsmith.capabilities.wrapped.SecretsSettings;
import dev.toolsmith.capabilities.wrapped.WrappedCalls;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.testsupport.bench.LatencySamples;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.flywaydb.core.Flyway;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What the capabilities manager adds to a wrapped tool's HTTP call: the usage policy's checks (allowed
 * callers, the caller's and the tool's Bucket4j token buckets in PostgreSQL, the quota/budget
 * reservation in PostgreSQL) plus the sandboxed executor's own work (input validation, secret
 * decryption, request building, output validation), measured per call against a local WireMock and
 * compared with the same request sent raw. It uses the service's own classes and migrations, in a
 * scratch schema {@code policy_bench} of a real PostgreSQL (dropped and recreated each run).
 *
 * <p>Run from capabilities-manager/ after {@code ./mvnw -pl capabilities-manager -am install -DskipTests}
 * and {@code ./mvnw -pl capabilities-manager dependency:build-classpath -Dmdep.includeScope=test
 * -Dmdep.outputFile=target/test-classpath.txt}:
 * {@code java -cp target/classes:target/test-classes:$(cat target/test-classpath.txt)
 * dev.toolsmith.capabilities.bench.PolicyOverheadBenchmark [--iterations N] [--warmup N] [--jdbc-url URL]
 * [--reservation-commit durable|async] [--per-caller-fraction F] [--lease-units N]}.
 * The last line is JSON.
 */
@Command(name = "PolicyOverheadBenchmark", mixinStandardHelpOptions = true,
        description = "What the usage policy and the executor add to a wrapped tool's HTTP call; the last line is JSON.")
public final class PolicyOverheadBenchmark implements Callable<Integer> {

    private static final String SCHEMA = "policy_bench";
    private static final String CALLER = "bench-planner";

    @Option(names = "--iterations", defaultValue = "5000", description = "measured calls (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--warmup", defaultValue = "2000", description = "calls before measuring (default ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--jdbc-url", defaultValue = "jdbc:postgresql://127.0.0.1:5432/toolsmith")
    String url;

    @Option(names = "--user", defaultValue = "toolsmith")
    String user;

    @Option(names = "--password", defaultValue = "toolsmith")
    String password;

    @Option(names = "--reservation-commit", defaultValue = "durable", description = "durable or async")
    String reservationCommit;

    @Option(names = "--per-caller-fraction", defaultValue = "1.0")
    double perCallerFraction;

    /** Units of the rate, quota and budget drawn per round trip (the service's default; 1 = a round trip per call). */
    @Option(names = "--lease-units", defaultValue = "64")
    int leaseUnits;

    public static void main(String[] args) {
        System.exit(new CommandLine(new PolicyOverheadBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        boolean asyncReservations = reservationCommit.equalsIgnoreCase("async");

        prepareSchema(url, user, password);
        ContractCodec codec = new ContractCodec();
        WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")
                .disableRequestJournal().containerThreads(8));
        server.start();
        ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor();
        try (AgroalDataSource dataSource = pool(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA, user,
                password); AgroalDataSource asyncState = pool(url + (url.contains("?") ? "&" : "?") + "currentSchema="
                        + SCHEMA + "&options=-c%20synchronous_commit%3Doff", user, password)) {
            server.stubFor(get(urlPathEqualTo("/v1/rate")).willReturn(aResponse().withHeader("Content-Type",
                    "application/json").withBody("{\"from\":\"EUR\",\"to\":\"USD\",\"rate\":1.0842}")));
            String base = "http://127.0.0.1:" + server.port() + "/v1";
            String key = Base64.getEncoder().encodeToString(new byte[32]);
            AesGcmSecretCipher cipher = AesGcmSecretCipher.fromBase64Key(key);

            // Every kind of limit, none of them reached: the cost of checking them all on each call.
            UsagePolicy policy = new UsagePolicy(new UsagePolicy.RateLimit(1_000_000.0, null, 1_000_000),
                    new UsagePolicy.Quota(1_000_000_000L, 1_000_000_000L),
                    new UsagePolicy.Budget("EUR", new BigDecimal("0.001"), new BigDecimal("1000000"),
                            new BigDecimal("2000000")),
                    List.of("someone-else", CALLER), Map.of("fx-key", cipher.encrypt("bench-key-123")));
            Plugin plugin = new Plugin("bench.fx-rate", "BENCH_FX_RATE", PluginType.WRAPPED_HTTP, PluginStatus.ENABLED,
                    null, 1, "sha256:bench", manifest(codec, base), codec.mapper().valueToTree(policy));
            ObjectNode inputs = (ObjectNode) codec.parse("{\"from\":\"EUR\",\"to\":\"USD\",\"amount\":125.5}");
            Map<String, JsonNode> inputMap = new LinkedHashMap<>();
            inputs.fields().forEachRemaining(e -> inputMap.put(e.getKey(), e.getValue()));

            PoliciesInForce policies = new PoliciesInForce(codec);
            // as in the service: buckets commit asynchronously, reservations durably unless asked otherwise
            PolicyLeases leasing = new PolicyLeases(leaseUnits, Duration.ofMillis(250));
            UsageReservations reservations = new UsageReservations(asyncReservations ? asyncState : dataSource, leasing);
            PolicyGate gate = new PolicyGate(new RateLimiter(asyncState, perCallerFraction, leasing), reservations, () -> {
                    });
            WrappedCalls calls = new WrappedCalls(sandbox(), () -> Optional.of(key), codec);
            UsageRecorder usage = new UsageRecorder(dataSource);
            flusher.scheduleWithFixedDelay(usage::flush, 500, 500, TimeUnit.MILLISECONDS);
            GuardedCalls guarded = new GuardedCalls(policies, gate, calls, usage);

            HttpClient rawClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest raw = HttpRequest.newBuilder(URI.create(base + "/rate?from=EUR&to=USD&amount=125.5"))
                    .timeout(Duration.ofSeconds(5)).header("X-Api-Key", "bench-key-123").GET().build();

            for (int i = 0; i < warmup; i++) {
                rawClient.send(raw, HttpResponse.BodyHandlers.ofByteArray());
                check(guarded.run(plugin, inputs, CALLER));
            }
            LatencySamples rawTimes = new LatencySamples(iterations);
            LatencySamples guardedTimes = new LatencySamples(iterations);
            LatencySamples policyTimes = new LatencySamples(iterations);
            LatencySamples overheadTimes = new LatencySamples(iterations);
            for (int i = 0; i < iterations; i++) {
                HttpResponse<byte[]> response = rawTimes.time(
                        () -> rawClient.send(raw, HttpResponse.BodyHandlers.ofByteArray()));
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("raw call answered " + response.statusCode());
                }

                check(guardedTimes.time(() -> guarded.run(plugin, inputs, CALLER)));

                // the same two stages GuardedCalls runs, timed apart: policy checks, then the sandboxed call
                long t2 = System.nanoTime();
                Admission admission = gate.admit(plugin.toolId(), policies.of(plugin), CALLER, Instant.now());
                long policyNanos = System.nanoTime() - t2;
                policyTimes.add(policyNanos);
                if (!(admission instanceof Admission.Admitted)) {
                    throw new IllegalStateException("denied: " + admission);
                }
                dev.toolsmith.sandbox.ExecutionOutcome outcome = calls.call(plugin.manifest(), inputMap,
                        policies.of(plugin));
                if (!outcome.succeeded()) {
                    throw new IllegalStateException("call failed: " + outcome.reason());
                }
                overheadTimes.add(policyNanos + outcome.overheadNanos());
            }
            usage.flush();
            reservations.closeAll();
            leasing.close();
            System.out.println(rawTimes.row("raw HTTP call"));
            System.out.println(guardedTimes.row("guarded call (policy + sandbox + HTTP)"));
            System.out.println(policyTimes.row("policy checks (callers, token buckets, quota/budget reservation)"));
            System.out.println(overheadTimes.row("overhead: policy checks + executor work"));
            double overheadP99 = overheadTimes.p99Ms();
            System.out.printf(Locale.ROOT, "{\"iterations\":%d,\"warmup\":%d,\"raw_p50_ms\":%.3f,\"raw_p99_ms\":%.3f,"
                    + "\"guarded_p50_ms\":%.3f,\"guarded_p99_ms\":%.3f,\"policy_p50_ms\":%.3f,\"policy_p99_ms\":%.3f,"
                    + "\"overhead_p50_ms\":%.3f,\"overhead_p99_ms\":%.3f,\"p99_difference_ms\":%.3f,"
                    + "\"reservation_commit\":\"%s\",\"per_caller_fraction\":%s,\"lease_units\":%d,\"target_overhead_p99_ms\":2.0,\"met\":%b}%n", iterations, warmup,
                    rawTimes.p50Ms(), rawTimes.p99Ms(), guardedTimes.p50Ms(), guardedTimes.p99Ms(),
                    policyTimes.p50Ms(), policyTimes.p99Ms(), overheadTimes.p50Ms(), overheadP99,
                    guardedTimes.p99Ms() - rawTimes.p99Ms(),
                    asyncReservations ? "async" : "durable", perCallerFraction, leaseUnits, overheadP99 <= 2.0);
        } finally {
            flusher.shutdownNow();
            server.stop();
        }
        return 0;
    }

    private static void check(PluginOutcome outcome) {
        if (!(outcome instanceof PluginOutcome.Succeeded)) {
            throw new IllegalStateException("the guarded call did not succeed: " + outcome);
        }
    }

    /** A fresh scratch schema with the service's migrations (the same Flyway scripts it runs at start-up). */
    private static void prepareSchema(String url, String user, String password) throws Exception {
        try (Connection c = java.sql.DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
        Flyway.configure().dataSource(url, user, password).schemas(SCHEMA).defaultSchema(SCHEMA)
                .locations("classpath:db/eventing", "classpath:db/migration").load().migrate();
    }

    private static AgroalDataSource pool(String url, String user, String password) throws Exception {
        return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(8).initialSize(4).minSize(4)
                        .connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                                .principal(new NamePrincipal(user)).credential(new SimplePassword(password)))));
    }

    private static SandboxSettings sandbox() {
        return new SandboxSettings() {
            @Override
            public boolean allowPrivateNetworks() {
                return true; // the API is WireMock on this machine
            }

            @Override
            public Duration connectTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public int maxRedirects() {
                return 3;
            }
        };
    }

    private static ToolManifest manifest(ContractCodec codec, String base) {
        JsonNode in = codec.parse("{\"type\":\"object\",\"required\":[\"from\",\"to\"],\"properties\":{"
                + "\"from\":{\"type\":\"string\",\"pattern\":\"^[A-Z]{3}$\"},\"to\":{\"type\":\"string\",\"pattern\":\"^[A-Z]{3}$\"},"
                + "\"amount\":{\"type\":\"number\",\"minimum\":0}}}");
        JsonNode out = codec.parse("{\"type\":\"object\",\"required\":[\"rate\"],\"properties\":{"
                + "\"from\":{\"type\":\"string\"},\"to\":{\"type\":\"string\"},\"rate\":{\"type\":\"number\"}}}");
        HttpBinding binding = new HttpBinding("GET", base, "/rate", List.of(
                new ParameterBinding("from", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("to", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("amount", null, ParameterLocation.QUERY, null, null, false)), null,
                new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"), 5_000, 0);
        return new ToolManifest("bench.fx-rate", "BENCH_FX_RATE", "FX rate", "Exchange rate between two currencies",
                ToolSourceType.OPENAPI, "bench", "finance", List.of(), in, out, Risk.READ_ONLY, binding, null, 1,
                "sha256:bench");
    }
}
