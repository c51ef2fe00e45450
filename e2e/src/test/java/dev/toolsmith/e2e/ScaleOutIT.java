package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.testsupport.KafkaTestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scale-out, over the real processes: two capabilities managers and two librarians, the second of each started as
 * an operator does ({@code ./toolsmith replica}), share a steady stream of plan steps. A quarter of the steps carry
 * a verb nobody registered (each its own, so no learned alias answers it): only a search on a librarian, over
 * Kafka, can resolve them; the others run a registered verb. Mid-stream the capabilities manager whose outbox relay
 * publishes and the librarian whose relay publishes are killed with SIGKILL.
 *
 * <p>Every step must get exactly one result (one result event: delivery is at least once, so an event the
 * survivor's relay publishes again, with its id, counts once; a second event is a second answer), the survivor's
 * relay must take over publishing, the killed instances' partitions must move to the survivors, and afterwards a
 * search on every partition of {@code tool-search-requests} must be answered, by the surviving librarian.
 */
@ExtendWith(Platform.class)
class ScaleOutIT {

    private static final Instance CAPABILITIES = new Instance("capabilities-manager", Platform.CAPABILITIES_PORT);
    private static final Instance CAPABILITIES_REPLICA = new Instance("capabilities-manager-18092", 18092);
    private static final Instance LIBRARIAN = new Instance("librarian", Platform.LIBRARIAN_PORT);
    private static final Instance LIBRARIAN_REPLICA = new Instance("librarian-18091", 18091);

    private static final int STEPS = 1_200;
    private static final int PER_SECOND = 30;
    private static final int PLANS = 24;
    /** Generous: a killed instance's partitions move once its Kafka session times out (10 s here, Platform). */
    private static final Duration ALL_RESULTS = Duration.ofMinutes(4);
    private static final String REGISTERED_VERB = "EVALUATE_EXPRESSION";
    private static final String NOVEL_VERB = "CALCULATE_ARITHMETIC_EXPRESSION";

    private static final String STEPS_GROUP = "capabilities-manager";
    private static final String SEARCH_GROUP = "librarian-search";

    private static KafkaTestClient kafka;
    private static ReplicaProbes probes;
    private static final String RUN = String.valueOf(ThreadLocalRandom.current().nextInt(10_000, 100_000));

    private record Instance(String name, int port) {
    }

    @BeforeAll
    static void twoOfEach() throws Exception {
        Platform platform = Platform.get(); // one of each, as `up` starts them, whatever an earlier test left
        // Side by side, as an operator scaling out both would: the two starts share the cores.
        CompletableFuture<?> librarian = CompletableFuture.runAsync(() -> startReplica(LIBRARIAN_REPLICA, "librarian"));
        startReplica(CAPABILITIES_REPLICA, "capabilities-manager");
        librarian.get(5, TimeUnit.MINUTES);
        kafka = platform.kafkaClient("planner");
        probes = new ReplicaProbes(platform);
    }

    private static void startReplica(Instance replica, String service) {
        try {
            Platform.get().startReplica(service, replica.port());
        } catch (Exception e) {
            throw new IllegalStateException("cannot start " + replica.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The replicas are stopped gracefully (SIGTERM: they leave their consumer groups at once), so that
     * {@code ./toolsmith up} starts the platform again as it was; the next test class that needs it starts the
     * killed instances again ({@link Platform}), and none does when this class is the last.
     */
    @AfterAll
    static void stopTheReplicas() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
        if (probes != null) {
            probes.close();
        }
        List<CompletableFuture<Void>> stopped = new ArrayList<>();
        for (Instance replica : List.of(CAPABILITIES_REPLICA, LIBRARIAN_REPLICA)) {
            if (Platform.get().pid(replica.name()).isPresent()) {
                stopped.add(CompletableFuture.runAsync(() -> {
                    try {
                        Platform.get().stop(replica.name());
                    } catch (Exception e) {
                        throw new IllegalStateException("cannot stop " + replica.name() + ": " + e.getMessage(), e);
                    }
                }));
            }
        }
        CompletableFuture.allOf(stopped.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
    }

    @Test
    void killingOneOfTwoCapabilitiesManagersAndOneOfTwoLibrariansMidStreamLosesNoStepAndRepeatsNone() throws Exception {
        // Both instances of each service own partitions: the group shares the topic between them.
        await().atMost(Duration.ofSeconds(60)).until(() -> probes.owners(STEPS_GROUP, Topics.PLAN_STEPS).size() == 2
                && probes.owners(SEARCH_GROUP, Topics.TOOL_SEARCH_REQUESTS).size() == 2);
        // Kill the instances whose relays publish, so that the survivors' standby relays must take over.
        Instance deadCapabilities = relayOf("capabilities", CAPABILITIES, CAPABILITIES_REPLICA);
        Instance survivingCapabilities = deadCapabilities == CAPABILITIES ? CAPABILITIES_REPLICA : CAPABILITIES;
        Instance deadLibrarian = relayOf("librarian", LIBRARIAN, LIBRARIAN_REPLICA);
        Instance survivingLibrarian = deadLibrarian == LIBRARIAN ? LIBRARIAN_REPLICA : LIBRARIAN;

        List<PlanStep> steps = stream(plansOnEveryPartition());
        Map<Instance, Set<String>> workedOnBeforeTheKill = new HashMap<>();
        Map<String, Duration> handovers = new LinkedHashMap<>();
        Results results = runStream(steps, () -> {
            for (Instance instance : List.of(CAPABILITIES, CAPABILITIES_REPLICA, LIBRARIAN, LIBRARIAN_REPLICA)) {
                workedOnBeforeTheKill.put(instance, workedOn(instance));
            }
            long killed = System.nanoTime();
            Platform.get().kill(deadCapabilities.name());
            Platform.get().kill(deadLibrarian.name());
            awaitRelayOf("capabilities", survivingCapabilities);
            handovers.put("capabilities", Duration.ofNanos(System.nanoTime() - killed));
            awaitRelayOf("librarian", survivingLibrarian);
            handovers.put("librarian", Duration.ofNanos(System.nanoTime() - killed));
            System.out.println("ScaleOutIT: outbox relays published by the survivors within " + handovers + " of the kill");
        });

        workedOnBeforeTheKill.forEach((instance, stepIds) -> assertThat(stepIds)
                .as("steps %s worked on before the kill", instance.name()).isNotEmpty());
        // Among them the results of steps only the survivor worked on, after the kill: its relay published them.
        results.assertExactlyOnce(steps);
        Set<String> afterTheKill = new HashSet<>(workedOn(survivingCapabilities));
        afterTheKill.removeAll(workedOnBeforeTheKill.get(survivingCapabilities));
        assertThat(afterTheKill).as("steps the surviving capabilities manager worked on after the kill").isNotEmpty();
        // Still theirs at the end.
        assertThat(ReplicaProbes.relayHolder("capabilities")).isEqualTo(Platform.get().pid(survivingCapabilities.name()));
        assertThat(ReplicaProbes.relayHolder("librarian")).isEqualTo(Platform.get().pid(survivingLibrarian.name()));
        assertThat(probes.owners(STEPS_GROUP, Topics.PLAN_STEPS)).as("plan-steps after the kill")
                .containsExactly(allPartitionsOf(Topics.PLAN_STEPS));
        assertSearchIsAnsweredOnEveryPartitionBy(survivingLibrarian);
    }

    /** The instance (of the two) whose process holds {@code schema}'s relay lock. */
    private static Instance relayOf(String schema, Instance one, Instance other) throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> ReplicaProbes.relayHolder(schema).isPresent());
        long holder = ReplicaProbes.relayHolder(schema).getAsLong();
        for (Instance instance : List.of(one, other)) {
            if (Platform.get().pid(instance.name()).equals(OptionalLong.of(holder))) {
                return instance;
            }
        }
        throw new AssertionError("the " + schema + " relay is held by process " + holder + ", neither "
                + one.name() + " nor " + other.name());
    }

    /** Waits until {@code survivor}'s process publishes {@code schema}'s outbox. */
    private static void awaitRelayOf(String schema, Instance survivor) throws Exception {
        long pid = Platform.get().pid(survivor.name()).orElseThrow(() -> new AssertionError(survivor.name() + " died"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> assertThat(
                ReplicaProbes.relayHolder(schema)).as("the process publishing the %s outbox", schema)
                .isEqualTo(OptionalLong.of(pid)));
    }

    private static List<Integer> allPartitionsOf(String topic) throws Exception {
        return java.util.stream.IntStream.range(0, probes.partitions(topic)).boxed().toList();
    }

    /**
     * Novel-verb steps whose search requests (keyed by step id) fall on every partition of
     * {@code tool-search-requests}, the killed librarian's included: each is found and substituted, and the
     * surviving librarian's search count grows by at least as many.
     */
    private static void assertSearchIsAnsweredOnEveryPartitionBy(Instance survivor) throws Exception {
        List<Integer> all = allPartitionsOf(Topics.TOOL_SEARCH_REQUESTS);
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(
                probes.owners(SEARCH_GROUP, Topics.TOOL_SEARCH_REQUESTS)).as("tool-search-requests after the kill")
                .containsExactly(all));
        List<PlanStep> probeSteps = new ArrayList<>();
        Map<Integer, Integer> perPartition = new HashMap<>();
        for (int i = 0; perPartition.size() < all.size() || perPartition.values().stream().anyMatch(n -> n < 2); i++) {
            String stepId = "scale-" + RUN + "-search-" + i;
            int partition = ReplicaProbes.partitionOf(stepId, all.size());
            if (perPartition.getOrDefault(partition, 0) < 2) {
                perPartition.merge(partition, 1, Integer::sum);
                // A verb of its own (numbered past the stream's): no alias learned from the stream answers it.
                probeSteps.add(step(stepId, "scale-" + RUN + "-search", NOVEL_VERB + "_" + RUN + "_" + (STEPS + i), i));
            }
        }
        double before = ReplicaProbes.metric(survivor.port(), "toolsmith_librarian_search_seconds_count", "");
        Results results = runStream(probeSteps, () -> {
        });
        assertThat(results.missing(probeSteps)).as("search steps without a result").isEmpty();
        assertThat(results.first(probeSteps).values()).as("search steps after the kill").allSatisfy(result -> {
            assertThat(result.status()).as("%s: %s", result.stepId(), result.error()).isEqualTo(StepStatus.SUBSTITUTED);
            assertThat(result.substitution().viaAlias()).isFalse();
            assertThat(result.servedBy().verb()).isEqualTo(REGISTERED_VERB);
        });
        assertThat(ReplicaProbes.metric(survivor.port(), "toolsmith_librarian_search_seconds_count", "") - before)
                .as("searches %s answered", survivor.name()).isGreaterThanOrEqualTo(probeSteps.size());
        assertThat(workedOn(survivor)).as("search spans in %s's log", survivor.name())
                .containsAll(probeSteps.stream().map(PlanStep::stepId).toList());
    }

    /**
     * This run's steps an instance took from Kafka: a capabilities manager's {@code step <VERB>} spans, a librarian's
     * {@code search} spans (not the Kafka client's records-consumed series in {@code /q/metrics}: a replica's stayed
     * at 0 for plan-steps while it ran steps).
     */
    private static Set<String> workedOn(Instance instance) throws Exception {
        Path log = Platform.get().state().resolve("logs/" + instance.name() + ".log");
        return ReplicaProbes.stepsWithSpan(log, instance.name().startsWith("librarian") ? "search" : "step ",
                "scale-" + RUN + "-");
    }

    /** Plan ids (the plan-steps key) spread so that every partition carries several plans. */
    private static List<String> plansOnEveryPartition() throws Exception {
        int partitions = probes.partitions(Topics.PLAN_STEPS);
        Map<Integer, List<String>> byPartition = new HashMap<>();
        for (int i = 0; byPartition.values().stream().mapToInt(List::size).sum() < PLANS; i++) {
            String plan = "scale-" + RUN + "-plan-" + i;
            List<String> plans = byPartition.computeIfAbsent(ReplicaProbes.partitionOf(plan, partitions), p -> new ArrayList<>());
            if (plans.size() < PLANS / partitions) {
                plans.add(plan);
            }
        }
        return byPartition.values().stream().flatMap(List::stream).toList();
    }

    /** Every fourth step a verb of its own that only a search can resolve; the others the registered verb. */
    private static List<PlanStep> stream(List<String> plans) {
        List<PlanStep> steps = new ArrayList<>();
        for (int i = 0; i < STEPS; i++) {
            String verb = i % 4 == 0 ? NOVEL_VERB + "_" + RUN + "_" + i : REGISTERED_VERB;
            steps.add(step("scale-" + RUN + "-" + i, plans.get(i % plans.size()), verb, i));
        }
        return steps;
    }

    private static PlanStep step(String stepId, String planId, String verb, int price) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        return new PlanStep(stepId, planId, verb, "multiply the price by the quantity",
                Map.of("expression", StepInput.literal(json.textNode("price * quantity"), "string"),
                        "variables", StepInput.literal(json.objectNode().put("price", price).put("quantity", 2), "object")),
                Map.of("result", "the total"), "planner");
    }

    /**
     * Sends {@code steps} at {@link #PER_SECOND} from a thread of their own, runs {@code kill} once a fifth of them
     * are answered, then reads results until every step has one, plus a quiet period to catch late duplicates.
     */
    private static Results runStream(List<PlanStep> steps, Crash kill) throws Exception {
        Results results = new Results(steps);
        try (KafkaTestClient.Reader reader = kafka.reader(Topics.STEP_RESULTS)) {
            reader.pollFor(Duration.ofSeconds(1));
            CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> send(steps));
            boolean killed = false;
            long deadline = System.nanoTime() + ALL_RESULTS.toNanos();
            while (System.nanoTime() < deadline && results.answered() < steps.size()) {
                results.read(reader.pollFor(Duration.ofMillis(200)));
                if (sent.isCompletedExceptionally()) {
                    sent.join(); // throws why sending stopped, instead of waiting out the deadline
                }
                if (!killed && results.answered() >= steps.size() / 5) {
                    kill.run();
                    killed = true;
                }
            }
            results.read(reader.pollFor(Duration.ofSeconds(5)));
            sent.get(1, TimeUnit.MINUTES);
        }
        return results;
    }

    private static void send(List<PlanStep> steps) {
        long start = System.nanoTime();
        for (int i = 0; i < steps.size(); i++) {
            PlanStep step = steps.get(i);
            kafka.send(Topics.PLAN_STEPS, step.planId(), step);
            long wait = start + i * 1_000_000_000L / PER_SECOND - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }

    /** The result events read for a set of steps, by step id, each event id once. */
    private static final class Results {
        private final ContractCodec codec = kafka.codec();
        private final Map<String, List<StepResult>> byStep = new LinkedHashMap<>();
        private final Set<String> plans;
        private final Set<String> events = new HashSet<>();
        private int readUpTo;
        private int republished;

        Results(List<PlanStep> steps) {
            steps.forEach(step -> byStep.put(step.stepId(), new ArrayList<>()));
            plans = steps.stream().map(PlanStep::planId).collect(Collectors.toSet());
        }

        /** {@code seen} is everything the reader has read so far; only records new since the last call are opened. */
        void read(List<ConsumerRecord<String, byte[]>> seen) {
            for (ConsumerRecord<String, byte[]> record : seen.subList(readUpTo, seen.size())) {
                if (!plans.contains(record.key())) {
                    continue; // another test's result (results are keyed by plan id)
                }
                EventEnvelope envelope = codec.openEnvelope(record.value());
                StepResult result = codec.payload(envelope, StepResult.class);
                List<StepResult> forStep = byStep.get(result.stepId());
                if (forStep == null) {
                    continue;
                }
                if (events.add(envelope.id())) {
                    forStep.add(result);
                } else {
                    republished++; // at least once: the same event again, which consumers apply once
                }
            }
            readUpTo = seen.size();
        }

        long answered() {
            return byStep.values().stream().filter(r -> !r.isEmpty()).count();
        }

        List<String> missing(List<PlanStep> steps) {
            return steps.stream().map(PlanStep::stepId).filter(id -> byStep.get(id).isEmpty()).toList();
        }

        Map<String, StepResult> first(List<PlanStep> steps) {
            return steps.stream().filter(s -> !byStep.get(s.stepId()).isEmpty())
                    .collect(Collectors.toMap(PlanStep::stepId, s -> byStep.get(s.stepId()).get(0)));
        }

        void assertExactlyOnce(List<PlanStep> steps) {
            Map<String, Integer> repeated = byStep.entrySet().stream().filter(e -> e.getValue().size() > 1)
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size()));
            List<String> missing = missing(steps);
            Map<String, Long> outcomes = steps.stream().filter(s -> !byStep.get(s.stepId()).isEmpty())
                    .collect(Collectors.groupingBy(s -> kind(s) + " " + byStep.get(s.stepId()).get(0).status(),
                            Collectors.counting()));
            String summary = "outcomes " + outcomes + ", events published again " + republished;
            System.out.println("ScaleOutIT: " + steps.size() + " steps, " + summary);
            assertThat(missing).as("steps without a result (%s)", summary).isEmpty();
            assertThat(repeated).as("steps with more than one result (%s)", summary).isEmpty();

            Map<String, StepResult> results = first(steps);
            Function<PlanStep, StepResult> resultOf = s -> results.get(s.stepId());
            for (PlanStep step : steps) {
                StepResult result = resultOf.apply(step);
                if (step.actionVerb().equals(REGISTERED_VERB)) {
                    // Nothing is claimed before a side-effect-free plugin runs: a step the killed instance had not
                    // written yet runs again on the survivor.
                    assertThat(result.status()).as("%s: %s", step.stepId(), result.error()).isEqualTo(StepStatus.SUCCEEDED);
                } else if (result.status() == StepStatus.FAILED) {
                    // Claimed by the killed instance and never finished: answered by the sweeper, never re-run.
                    assertThat(result.error()).as(step.stepId()).contains("interrupted");
                } else if (result.status() == StepStatus.UNRESOLVED) {
                    // Its search request waited on the killed librarian's partition until the search timed out.
                    assertThat(result.error()).as(step.stepId()).contains("did not answer");
                } else {
                    assertThat(result.status()).as("%s: %s", step.stepId(), result.error()).isEqualTo(StepStatus.SUBSTITUTED);
                }
            }
            long novel = steps.stream().filter(s -> !s.actionVerb().equals(REGISTERED_VERB)).count();
            assertThat(steps.stream().filter(s -> resultOf.apply(s).status() == StepStatus.SUBSTITUTED).count())
                    .as("novel steps substituted (%s)", summary).isGreaterThan(novel / 2);
        }

        private static String kind(PlanStep step) {
            return step.actionVerb().equals(REGISTERED_VERB) ? "registered" : "novel";
        }
    }

    @FunctionalInterface
    private interface Crash {
        void run() throws Exception;
    }
}
