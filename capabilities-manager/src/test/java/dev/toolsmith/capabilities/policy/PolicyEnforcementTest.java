package dev.toolsmith.capabilities.policy;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.ADMIN;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.PLANNER_NAME;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.VIEWER;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.id;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.rateTool;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.register;
import static dev.toolsmith.capabilities.wrapped.WrappedPlugins.runStep;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.capabilities.usage.UsageRecorder;
import dev.toolsmith.capabilities.wrapped.WrappedPlugins;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Usage policies are enforced before every call of a wrapped tool: who may call, how fast, how often,
 * for how much; exactly, with many concurrent callers; changed without a restart; and reported.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class PolicyEnforcementTest {

    static WireMockServer api;

    @Inject
    PluginRegistry registry;

    @Inject
    UsageRecorder usage;

    @Inject
    dev.toolsmith.capabilities.step.StepService steps;

    @Inject
    io.agroal.api.AgroalDataSource dataSource;

    @BeforeAll
    static void startApi() {
        api = WrappedPlugins.startApi();
        api.stubFor(get(urlPathEqualTo("/rate")).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("{\"rate\": 1.5}")));
    }

    @AfterAll
    static void stopApi() {
        api.stop();
    }

    /** A plugin of its own for each test: tool id, verb, and the query value WireMock counts it by. */
    private record Tool(String toolId, String verb) {

        static Tool fresh(String name) {
            String suffix = id("x").substring(2).replace("-", "").toUpperCase();
            return new Tool(name + "-" + suffix.toLowerCase() + ".rate", "RATE_" + name.toUpperCase().replace('-', '_')
                    + "_" + suffix);
        }

        Map<String, Object> inputs() {
            return Map.of("case", toolId);
        }

        int callsReceived() {
            return api.countRequestsMatching(getRequestedFor(urlPathEqualTo("/rate"))
                    .withQueryParam("case", com.github.tomakehurst.wiremock.client.WireMock.equalTo(toolId)).build()).getCount();
        }
    }

    private Tool registered(String name, UsagePolicy policy) {
        Tool tool = Tool.fresh(name);
        register(registry, rateTool(tool.toolId(), tool.verb(), api, null, 5_000, 0, null), policy);
        return tool;
    }

    private static UsagePolicy budget(BigDecimal cost, BigDecimal soft, BigDecimal hard) {
        return new UsagePolicy(null, null, new UsagePolicy.Budget("EUR", cost, soft, hard), null, null);
    }

    @Test
    void aCallerTheAllowedCallersDoNotNameIsDeniedAndNothingIsSentUntilANewPolicyAllowsIt() {
        UsagePolicy onlyB = new UsagePolicy(null, null, null, List.of("planner-b"), null);
        Tool tool = registered("callers", onlyB);

        StepResult denied = runStep(PLANNER, tool.verb(), tool.inputs());

        assertThat(denied.status()).isEqualTo(StepStatus.DENIED);
        assertThat(denied.error()).contains("caller '" + PLANNER_NAME + "' is not allowed").doesNotContain("planner-b");
        assertThat(tool.callsReceived()).isZero();

        // re-approved with the same manifest and a new policy: in force without a restart
        register(registry, rateTool(tool.toolId(), tool.verb(), api, null, 5_000, 0, null),
                new UsagePolicy(null, null, null, List.of("planner-b", PLANNER_NAME), null));
        StepResult allowed = runStep(PLANNER, tool.verb(), tool.inputs());

        assertThat(allowed.status()).as(allowed.error()).isEqualTo(StepStatus.SUCCEEDED);
        assertThat(tool.callsReceived()).isEqualTo(1);
    }

    @Test
    void aStepWithoutCallerIdentityIsDenied() throws Throwable {
        // Both doors give every step its authenticated caller (REST: the API key; Kafka: the record's signature,
        // see StepOwnershipTest); a step that reached the service without one would still be refused.
        Tool tool = registered("anonymous", null);
        String plan = id("plan");
        StepResult result = VertxContextSupport.subscribeAndAwait(() -> steps.process(new PlanStep(id("step"), plan,
                tool.verb(), null, Steps.inputs("case", tool.toolId()), null, null))).result();

        assertThat(result.status()).isEqualTo(StepStatus.DENIED);
        assertThat(result.error()).contains("no caller identity");

        // refused at intake, whatever the plugin: internal ones too
        StepResult internal = VertxContextSupport.subscribeAndAwait(() -> steps.process(new PlanStep(id("step"), plan,
                "CONVERT_UNITS", null, Steps.inputs("value", 10, "from", "km", "to", "mi"), null, " "))).result();
        assertThat(internal.status()).isEqualTo(StepStatus.DENIED);
        assertThat(internal.error()).contains("no caller identity");
        assertThat(tool.callsReceived()).isZero();
    }

    @Test
    void beyondTheRateLimitCallsAreDeniedWithWhenToRetry() {
        Tool tool = registered("rate", new UsagePolicy(new UsagePolicy.RateLimit(null, 3, null), null, null, null, null));

        List<StepResult> results = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            results.add(runStep(PLANNER, tool.verb(), tool.inputs()));
        }

        assertThat(results.subList(0, 3)).extracting(StepResult::status).containsOnly(StepStatus.SUCCEEDED);
        assertThat(results.get(3).status()).isEqualTo(StepStatus.DENIED);
        assertThat(results.get(3).error()).contains("rate limit", "3/min", "retry in");
        assertThat(tool.callsReceived()).isEqualTo(3);
    }

    @Test
    void withAPerCallerShareEachCallerHasItsOwnBucketInsideTheToolsBucket() {
        // the service runs with the whole rate per caller; this limiter gives each caller half of it
        RateLimiter halves = new RateLimiter(dataSource, 0.5, new PolicyLeases(64, Duration.ofMillis(250)));
        String toolId = id("shared-tool");
        UsagePolicy.RateLimit fourPerMinute = new UsagePolicy.RateLimit(null, 4, null);

        assertThat(halves.tryAcquire(toolId, "planner-1", fourPerMinute)).isEmpty();
        assertThat(halves.tryAcquire(toolId, "planner-1", fourPerMinute)).isEmpty();
        assertThat(halves.tryAcquire(toolId, "planner-1", fourPerMinute)).get().asString()
                .contains("caller 'planner-1' has used its share", "4/min x 0.5");
        assertThat(halves.tryAcquire(toolId, "planner-2", fourPerMinute)).isEmpty();
        assertThat(halves.tryAcquire(toolId, "planner-2", fourPerMinute)).isEmpty();
        assertThat(halves.tryAcquire(toolId, "planner-3", fourPerMinute)).get().asString()
                .contains("rate limit of " + toolId + " reached (4/min)");
    }

    @Inject
    UsageReservations reservations;

    @Test
    void aReservationCountsInEveryPeriodOrInNoneAndALoweredLimitHoldsFromTheNextCall() {
        String toolId = Tool.fresh("periods").toolId();
        Instant now = Instant.parse("2026-03-14T10:00:00Z");
        UsagePolicy threePerMonth = new UsagePolicy(null, new UsagePolicy.Quota(10L, 3L), null, null, null);

        for (int i = 0; i < 3; i++) {
            assertThat(reservations.reserve(toolId, threePerMonth, now)).isInstanceOf(UsageReservations.Result.Reserved.class);
        }
        UsageReservations.Result fourth = reservations.reserve(toolId, threePerMonth, now);
        assertThat(fourth).isInstanceOfSatisfying(UsageReservations.Result.Refused.class, refused -> assertThat(refused.reason())
                .contains("monthly quota of 3 calls", toolId));
        // the refused call was not counted in the day either: the statement failed as a whole
        assertThat(callsCounted(toolId, "DAY")).isEqualTo(3);
        assertThat(callsCounted(toolId, "MONTH")).isEqualTo(3);

        UsagePolicy twoPerDay = new UsagePolicy(null, new UsagePolicy.Quota(2L, 100L), null, null, null);
        assertThat(reservations.reserve(toolId, twoPerDay, now)).isInstanceOfSatisfying(UsageReservations.Result.Refused.class,
                refused -> assertThat(refused.reason()).contains("daily quota of 2 calls"));

        UsageReservations.Result reserved = reservations.reserve(toolId, threePerMonth, now.plus(Duration.ofDays(30)));
        assertThat(reserved).isInstanceOf(UsageReservations.Result.Reserved.class); // a new month starts afresh
        reservations.release(((UsageReservations.Result.Reserved) reserved).reservation());
        assertThat(reservations.reserve(toolId, threePerMonth, now.plus(Duration.ofDays(30))))
                .isInstanceOf(UsageReservations.Result.Reserved.class);
    }

    @Test
    void replicasDrawingQuotaInBlocksNeverPassItAndGiveBackWhatTheyDoNotUse() throws Exception {
        String toolId = Tool.fresh("blocks").toolId();
        long perDay = 400;
        UsagePolicy policy = new UsagePolicy(null, new UsagePolicy.Quota(perDay, null), null, null, null);
        PolicyLeases leasingA = new PolicyLeases(64, Duration.ofMillis(200));
        PolicyLeases leasingB = new PolicyLeases(64, Duration.ofMillis(200));
        UsageReservations replicaA = new UsageReservations(dataSource, leasingA);
        UsageReservations replicaB = new UsageReservations(dataSource, leasingB);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            // eight callers on two replicas, each calling until refused
            List<Callable<Integer>> loops = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                UsageReservations replica = i % 2 == 0 ? replicaA : replicaB;
                loops.add(() -> {
                    int admitted = 0;
                    while (replica.reserve(toolId, policy, Instant.now()) instanceof UsageReservations.Result.Reserved) {
                        admitted++;
                    }
                    return admitted;
                });
            }
            int admitted = 0;
            for (Future<Integer> loop : callers.invokeAll(loops)) {
                admitted += loop.get();
            }
            assertThat(admitted).isLessThanOrEqualTo((int) perDay);

            // what a replica held when the other was refused comes back once it is idle for a window
            int more = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (admitted + more < perDay && System.nanoTime() < deadline) {
                if (replicaA.reserve(toolId, policy, Instant.now()) instanceof UsageReservations.Result.Reserved) {
                    more++;
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(admitted + more).isEqualTo((int) perDay);
            assertThat(replicaB.reserve(toolId, policy, Instant.now()))
                    .isInstanceOfSatisfying(UsageReservations.Result.Refused.class,
                            refused -> assertThat(refused.reason()).contains("daily quota of 400 calls"));
        } finally {
            callers.shutdownNow();
            replicaA.closeAll();
            replicaB.closeAll();
            leasingA.close();
            leasingB.close();
        }
        long[] counted = countersOf(toolId, "DAY", java.time.LocalDate.now(java.time.ZoneOffset.UTC));
        assertThat(counted[0]).as("calls counted").isEqualTo(perDay);
        assertThat(counted[1]).as("calls held").isZero();
    }

    @Test
    void unusedUnitsOfABlockAreGivenBackAndACallNeverSentReturnsItsUnit() {
        String toolId = Tool.fresh("giveback").toolId();
        UsagePolicy policy = new UsagePolicy(null, new UsagePolicy.Quota(10_000L, null), null, null, null);
        PolicyLeases leasing = new PolicyLeases(64, Duration.ofMillis(200));
        UsageReservations replica = new UsageReservations(dataSource, leasing);
        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        try {
            List<Reservation> made = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                made.add(((UsageReservations.Result.Reserved) replica.reserve(toolId, policy, Instant.now())).reservation());
            }
            // the second call drew a block: more is counted than used, and the rest is held
            long[] drawn = countersOf(toolId, "DAY", today);
            assertThat(drawn[0]).isGreaterThan(5);
            replica.release(made.get(4)); // refused before sending: its unit goes back
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                long[] settled = countersOf(toolId, "DAY", today);
                assertThat(settled[0]).as("calls counted after the idle block was given back").isEqualTo(4);
                assertThat(settled[1]).as("calls held").isZero();
            });
        } finally {
            replica.closeAll();
            leasing.close();
        }
    }

    @Test
    void fastRatesDrawTokensAheadButNeverPassTheSharedBucket() throws Exception {
        String toolId = Tool.fresh("fast-rate").toolId();
        UsagePolicy.RateLimit twoHundredPerSecond = new UsagePolicy.RateLimit(200.0, null, 200);
        PolicyLeases leasingA = new PolicyLeases(64, Duration.ofMillis(200));
        PolicyLeases leasingB = new PolicyLeases(64, Duration.ofMillis(200));
        RateLimiter replicaA = new RateLimiter(dataSource, 1.0, leasingA);
        RateLimiter replicaB = new RateLimiter(dataSource, 1.0, leasingB);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            long start = System.nanoTime();
            List<Callable<int[]>> loops = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                RateLimiter replica = i % 2 == 0 ? replicaA : replicaB;
                loops.add(() -> {
                    int[] admittedAndRefused = new int[2];
                    while (System.nanoTime() - start < Duration.ofMillis(600).toNanos()) {
                        admittedAndRefused[replica.tryAcquire(toolId, PLANNER_NAME, twoHundredPerSecond).isEmpty() ? 0 : 1]++;
                    }
                    return admittedAndRefused;
                });
            }
            int admitted = 0;
            int refused = 0;
            for (Future<int[]> loop : callers.invokeAll(loops)) {
                admitted += loop.get()[0];
                refused += loop.get()[1];
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            // a full bucket of 200 plus what it refilled: every admitted call spent a token the bucket gave out
            assertThat(admitted).isGreaterThan(200).isLessThanOrEqualTo(200 + (int) Math.ceil(200 * seconds));
            assertThat(refused).isPositive();
        } finally {
            callers.shutdownNow();
            replicaA.giveBackAll();
            replicaB.giveBackAll();
            leasingA.close();
            leasingB.close();
        }
    }

    /** {calls, held_calls} of a period row. */
    private long[] countersOf(String toolId, String kind, java.time.LocalDate start) {
        try (var connection = dataSource.getConnection();
                var query = connection.prepareStatement("SELECT calls, held_calls FROM usage_period WHERE tool_id = ? "
                        + "AND period_kind = ? AND period_start = ?")) {
            query.setString(1, toolId);
            query.setString(2, kind);
            query.setDate(3, java.sql.Date.valueOf(start));
            try (var row = query.executeQuery()) {
                return row.next() ? new long[] {row.getLong(1), row.getLong(2)} : new long[] {0, 0};
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long callsCounted(String toolId, String kind) {
        try (var connection = dataSource.getConnection();
                var query = connection.prepareStatement("SELECT calls FROM usage_period WHERE tool_id = ? AND period_kind = ? "
                        + "AND period_start = ?")) {
            query.setString(1, toolId);
            query.setString(2, kind);
            query.setDate(3, java.sql.Date.valueOf(kind.equals("DAY") ? "2026-03-14" : "2026-03-01"));
            try (var row = query.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aDailyQuotaIsAHardCap() {
        Tool tool = registered("quota", new UsagePolicy(null, new UsagePolicy.Quota(2L, 100L), null, null, null));

        List<StepStatus> statuses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statuses.add(runStep(PLANNER, tool.verb(), tool.inputs()).status());
        }
        StepResult fourth = runStep(PLANNER, tool.verb(), tool.inputs());

        assertThat(statuses).containsExactly(StepStatus.SUCCEEDED, StepStatus.SUCCEEDED, StepStatus.DENIED);
        assertThat(fourth.error()).contains("daily quota of 2 calls", tool.toolId());
        assertThat(tool.callsReceived()).isEqualTo(2);
    }

    @Test
    void fiftyConcurrentCallersAgainstAHardBudgetOfSevenCallsGetExactlySevenExecuted() throws Exception {
        int allowed = 7;
        Tool tool = registered("budget", budget(new BigDecimal("0.25"), null, new BigDecimal("1.75")));

        ExecutorService callers = Executors.newFixedThreadPool(50);
        List<StepResult> results = new ArrayList<>();
        try {
            List<Callable<StepResult>> calls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                calls.add(() -> runStep(PLANNER, tool.verb(), tool.inputs()));
            }
            for (Future<StepResult> result : callers.invokeAll(calls)) {
                results.add(result.get());
            }
        } finally {
            callers.shutdownNow();
        }

        assertThat(results).filteredOn(r -> r.status() == StepStatus.SUCCEEDED).hasSize(allowed);
        assertThat(results).filteredOn(r -> r.status() == StepStatus.DENIED).hasSize(50 - allowed)
                .allSatisfy(r -> assertThat(r.error()).contains("monthly budget of 1.75 EUR", "is spent"));
        assertThat(tool.callsReceived()).isEqualTo(allowed);
        usage.flush();
        given().header("X-API-Key", VIEWER).get("/plugins/" + tool.toolId() + "/usage").then().statusCode(200)
                .body("calls", equalTo(allowed)).body("denied", equalTo(50 - allowed))
                .body("budget.spentThisMonth", equalTo(1.75f)).body("budget.remaining", equalTo(0))
                .body("perCaller.caller", hasItem(PLANNER_NAME));
    }

    @Test
    void crossingTheSoftLimitNotifiesAdminsOnce() {
        Tool tool = registered("soft", budget(BigDecimal.ONE, new BigDecimal("3"), new BigDecimal("100")));
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader notifications = kafka.reader(Topics.NOTIFICATIONS)) {
            for (int i = 0; i < 6; i++) {
                assertThat(runStep(PLANNER, tool.verb(), tool.inputs()).status()).isEqualTo(StepStatus.SUCCEEDED);
            }

            notifications.awaitMatching(r -> softLimitOf(kafka, r.value(), tool.toolId()), Duration.ofSeconds(20));
            // longer than the crash-recovery sweep (2 s in tests): a second notice would have come by now
            List<Notification> notices = notifications.pollFor(Duration.ofSeconds(5)).stream()
                    .filter(r -> softLimitOf(kafka, r.value(), tool.toolId()))
                    .map(r -> kafka.codec().payload(kafka.codec().openEnvelope(r.value()), Notification.class)).toList();

            assertThat(notices).hasSize(1);
            assertThat(notices.get(0).message()).contains(tool.toolId(), "soft limit 3 EUR", "hard limit 100 EUR");
            assertThat(notices.get(0).severity()).isEqualTo(Notification.Severity.WARNING);
        }
        usage.flush();
        // after the crossing the calls draw in blocks: their spend shows once settled (every lease window)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().header("X-API-Key", ADMIN)
                .get("/plugins/" + tool.toolId() + "/usage?period=day").then().statusCode(200)
                .body("period", equalTo("day")).body("calls", equalTo(6)).body("errors", equalTo(0))
                .body("latencyP50Ms", notNullValue()).body("latencyP95Ms", notNullValue())
                .body("budget.softLimitCrossed", equalTo(true)).body("budget.spentThisMonth", equalTo(6)));
        given().header("X-API-Key", VIEWER).get("/usage").then().statusCode(200)
                .body("byTool.toolId", hasItem(tool.toolId())).body("byCaller.caller", hasItem(PLANNER_NAME));
        given().header("X-API-Key", VIEWER).get("/usage?period=year").then().statusCode(400);
        given().get("/usage").then().statusCode(401);
        given().header("X-API-Key", PLANNER).get("/usage").then().statusCode(403);
    }

    private static boolean softLimitOf(KafkaTestClient kafka, byte[] raw, String toolId) {
        Notification n = kafka.codec().payload(kafka.codec().openEnvelope(raw), Notification.class);
        return n.kind() == Notification.Kind.BUDGET_SOFT_LIMIT && toolId.equals(n.subjectId());
    }

    @Test
    void usageIsReadOnlyForViewersAndHiddenFromPlanners() {
        Tool tool = registered("usage-roles", null);
        given().header("X-API-Key", PLANNER).get("/plugins/" + tool.toolId() + "/usage").then().statusCode(403);
        given().header("X-API-Key", VIEWER).post("/plugins/" + tool.toolId() + "/disable").then().statusCode(403);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> given().header("X-API-Key", VIEWER)
                .get("/plugins/" + tool.toolId() + "/usage").then().statusCode(200).body("calls", equalTo(0)));
    }
}
