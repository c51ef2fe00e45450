package dev.toolsmith.e2e.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.e2e.PlannerOptions;
import dev.toolsmith.planner.kafka.PlannerKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Drives plan steps through Kafka against a running capabilities manager and librarian, as planners do,
 * and reports throughput and end-to-end latency (from producing a step to consuming its result).
 *
 * <ul>
 *   <li>known verb: {@code --steps} steps of the internal {@code EVALUATE_EXPRESSION} plugin, spread over
 *       64 plans, sent as fast as the producer goes (throughput; latency is then the burst's backlog) or,
 *       with {@code --rate N}, offered at N steps per second (latency below saturation);</li>
 *   <li>novel verb: {@code --novel} steps of {@code CALCULATE_ARITHMETIC_EXPRESSION}, a verb nothing
 *       registers, one at a time; the learned alias is deleted after each so every step takes the
 *       search-and-substitute path. Each step's description is different ({@code --novel-texts distinct},
 *       the default), so the librarian embeds every query; {@code --novel-texts same} repeats one text,
 *       as a verb without a learned alias does, and then its query vector comes from the cache.</li>
 * </ul>
 * With {@code --rate}, a line on standard error says where a step's time went (p50/p99 of: due → the
 * service wrote the result, → the relay sent it, → the driver read it), and {@code --stages-out FILE}
 * writes every step's stages as CSV. {@code --linger-ms N} (default 1) is the step producer's
 * {@code linger.ms}: 0 sends every step in a request of its own, which costs the broker and the service more
 * CPU than the wait saves at 1,000 steps/s (docs/benchmarks.md).
 * The last line printed is JSON:
 * {@code {"known_verb":{"steps":..,"steps_per_s":..,"p50_ms":..,"p99_ms":..,"succeeded":..},"novel_verb":{...}}}.
 */
@Command(name = "StepsBenchmark", mixinStandardHelpOptions = true,
        description = "Plan steps through Kafka against a running platform; the last line is JSON.")
public final class StepsBenchmark implements Callable<Integer> {

    private static final String KNOWN_VERB = "EVALUATE_EXPRESSION";
    private static final String NOVEL_VERB = "CALCULATE_ARITHMETIC_EXPRESSION";
    private static final String DESCRIPTION = "multiply the price by the quantity";

    private final ContractCodec codec = new ContractCodec();

    @Spec
    CommandSpec command;

    @Mixin
    PlannerOptions planner;

    @Option(names = "--capabilities", defaultValue = "http://127.0.0.1:8082", paramLabel = "URL",
            description = "the capabilities manager (default ${DEFAULT-VALUE})")
    String capabilities;

    @Option(names = "--admin-key", paramLabel = "KEY",
            description = "an admin API key, to reset the learned alias between novel steps (without it: no novel verb)")
    String adminKey;

    @Option(names = "--steps", defaultValue = "10000", paramLabel = "N", description = "known-verb steps (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--warmup", defaultValue = "500", paramLabel = "N", description = "known-verb steps before measuring (default ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "N",
            description = "known-verb steps offered per second; 0 (default) sends them as fast as the producer goes")
    double rate;

    @Option(names = "--novel", defaultValue = "200", paramLabel = "N", description = "novel-verb steps (default ${DEFAULT-VALUE})")
    int novel;

    @Option(names = "--novel-texts", defaultValue = "distinct", paramLabel = "distinct|same",
            description = "a different description per novel step, or one repeated (default ${DEFAULT-VALUE})")
    String novelTexts;

    @Option(names = "--stages-out", paramLabel = "FILE", description = "with --rate: every step's stages as CSV")
    String stagesFile;

    @Option(names = "--linger-ms", defaultValue = "1", paramLabel = "MS",
            description = "the step producer's linger.ms (default ${DEFAULT-VALUE})")
    int lingerMs;

    private Map<String, Object> kafkaLogin;
    /** Signs every step as --caller with --planner-key, as every planner must (docs/events.md). */
    private PlanStepSigner signer;

    public static void main(String[] argv) {
        System.exit(new CommandLine(new StepsBenchmark()).execute(argv));
    }

    @Override
    public Integer call() throws Exception {
        if (!novelTexts.equals("distinct") && !novelTexts.equals("same")) {
            throw new ParameterException(command.commandLine(), "--novel-texts is distinct or same, got " + novelTexts);
        }
        kafkaLogin = planner.kafkaLogin();
        signer = PlanStepSigner.of(planner.caller(), planner.plannerKey());
        String known = known(warmup, steps);
        String novelVerb = novel(novel);
        System.out.println("{\"known_verb\":" + known + ",\"novel_verb\":" + novelVerb + "}");
        return 0;
    }

    private String known(int warmup, int count) throws Exception {
        try (Session session = new Session()) {
            session.run(warmup, i -> step(KNOWN_VERB, "warm-" + (i % 64), DESCRIPTION), false);
            return session.run(count, i -> step(KNOWN_VERB, "plan-" + (i % 64), DESCRIPTION), false).json();
        }
    }

    private String novel(int count) throws Exception {
        if (adminKey == null) {
            System.err.println("novel verb skipped: --admin-key is needed to reset the learned alias between steps");
            return "null";
        }
        // distinct in this run and, by a random first order number, from earlier runs against the same librarian
        int firstOrder = 100_000 + new java.util.Random().nextInt(800_000);
        try (Session session = new Session()) {
            return session.run(count, i -> step(NOVEL_VERB, "novel-plan",
                    novelTexts.equals("distinct") ? DESCRIPTION + " of order " + (firstOrder + i) : DESCRIPTION), true).json();
        }
    }

    private PlanStep step(String verb, String planId, String description) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode variables = json.objectNode().put("price", 12.5).put("quantity", 4);
        return new PlanStep(UUID.randomUUID().toString(), planId, verb, description,
                Map.of("expression", StepInput.literal(json.textNode("price * quantity"), "string"),
                        "variables", StepInput.literal(variables, "object")),
                Map.of("result", "the total"), planner.caller());
    }

    /** The step's plan-steps record, signed: the HMAC costs the driver a few microseconds per step. */
    private ProducerRecord<String, byte[]> signed(PlanStep step, byte[] value) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.PLAN_STEPS, step.planId(), value);
        signer.headers(value).forEach(record.headers()::add);
        return record;
    }

    private void forgetAlias() throws Exception {
        HttpRequest delete = HttpRequest.newBuilder(URI.create(capabilities + "/aliases/" + NOVEL_VERB))
                .header("X-API-Key", adminKey).DELETE().build();
        HttpClient.newHttpClient().send(delete, HttpResponse.BodyHandlers.discarding());
    }

    /**
     * The two fields of a step result the driver needs, read without the contract's validation: the driver
     * shares the 2 cores with the system it measures, and validating every result cost it more CPU than the
     * capabilities manager spends on a step. The services validate what they read; this is a load generator.
     */
    private record Outcome(String stepId, StepStatus status, String time) {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

        static Outcome of(byte[] envelope) throws java.io.IOException {
            com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(envelope);
            com.fasterxml.jackson.databind.JsonNode data = tree.path("data");
            return new Outcome(data.path("stepId").asText(), StepStatus.valueOf(data.path("status").asText()),
                    tree.path("time").asText());
        }

        /** When the capabilities manager wrote the result (the envelope's time), in epoch ms; NaN if unreadable. */
        double finishedAtMillis() {
            try {
                return epochMillis(java.time.Instant.parse(time));
            } catch (java.time.format.DateTimeParseException e) {
                return Double.NaN;
            }
        }
    }

    static double epochMillis(java.time.Instant instant) {
        return instant.getEpochSecond() * 1e3 + instant.getNano() / 1e6;
    }

    /**
     * Where an open-loop step's time goes, by wall clock (all processes share this machine's clock):
     * due → the service wrote its result (the envelope's time: produce, broker, intake, execution), → the
     * relay sent it (the result record's Kafka timestamp, millisecond resolution), → the driver read it.
     */
    private static final class Stages {
        private final List<Double> finished = new ArrayList<>();
        private final List<Double> relayed = new ArrayList<>();
        private final List<Double> delivered = new ArrayList<>();
        /** Every step's stages as CSV, kept only when they are to be written ({@code --stages-out}). */
        private final StringBuilder rows;

        Stages(boolean keepRows) {
            rows = keepRows ? new StringBuilder("due_ms,to_written_ms,to_relay_ms,to_driver_ms\n") : null;
        }

        void add(double dueMillis, Outcome outcome, ConsumerRecord<String, byte[]> record) {
            double finishedAt = outcome.finishedAtMillis();
            if (Double.isNaN(finishedAt)) {
                return; // a result without a readable time counts in the latencies, not in the stages
            }
            double now = epochMillis(java.time.Instant.now());
            finished.add(finishedAt - dueMillis);
            relayed.add(record.timestamp() - finishedAt);
            delivered.add(now - record.timestamp());
            if (rows == null) {
                return;
            }
            rows.append(String.format(Locale.ROOT, "%.3f,%.3f,%.3f,%.3f%n", dueMillis, finishedAt - dueMillis,
                    record.timestamp() - finishedAt, now - record.timestamp()));
        }

        /** Writes the rows, for looking at when the slow steps happened. */
        void write(String file) throws java.io.IOException {
            java.nio.file.Files.writeString(java.nio.file.Path.of(file), rows);
        }

        String summary() {
            return "stages p50/p99 ms: to result written " + percentiles(finished) + ", to relay send "
                    + percentiles(relayed) + ", to driver " + percentiles(delivered);
        }

        private static String percentiles(List<Double> values) {
            List<Double> sorted = values.stream().sorted().toList();
            return String.format(Locale.ROOT, "%.2f/%.2f", Results.percentile(sorted, 0.50),
                    Results.percentile(sorted, 0.99));
        }
    }

    /** Latencies and statuses of the results that came back. */
    private static final class Results {
        private final List<Double> latencies = new ArrayList<>();
        private final Map<StepStatus, Integer> statuses = new java.util.EnumMap<>(StepStatus.class);
        private long succeeded;

        int count() {
            return latencies.size();
        }

        void add(StepStatus status, double latencyMs) {
            latencies.add(latencyMs);
            statuses.merge(status, 1, Integer::sum);
            if (status == StepStatus.SUCCEEDED || status == StepStatus.SUBSTITUTED) {
                succeeded++;
            }
        }

        Stats stats(int expected, double seconds) {
            if (latencies.size() < expected) {
                System.err.printf("only %d of %d results arrived in time%n", latencies.size(), expected);
            }
            List<Double> sorted = latencies.stream().sorted().toList();
            StringBuilder sample = new StringBuilder("{");
            statuses.forEach((status, n) -> sample.append(sample.length() > 1 ? "," : "").append('"').append(status)
                    .append("\":").append(n));
            return new Stats(latencies.size(), latencies.size() / seconds, percentile(sorted, 0.50),
                    percentile(sorted, 0.99), succeeded, sample.append('}').toString());
        }

        static double percentile(List<Double> sorted, double q) {
            return sorted.isEmpty() ? Double.NaN
                    : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
        }
    }

    private record Stats(int steps, double stepsPerSecond, double p50, double p99, long succeeded, String sample) {
        String json() {
            return String.format(Locale.ROOT,
                    "{\"steps\":%d,\"steps_per_s\":%.1f,\"p50_ms\":%.2f,\"p99_ms\":%.2f,\"succeeded\":%d,\"statuses\":%s}",
                    steps, stepsPerSecond, p50, p99, succeeded, sample);
        }
    }

    /** One producer and one results consumer; measures every step it sends. */
    private final class Session implements AutoCloseable {

        private final KafkaProducer<String, byte[]> producer;
        private final KafkaConsumer<String, byte[]> consumer;

        Session() {
            producer = PlannerKafka.producer(planner.bootstrap(),
                    PlannerKafka.with(kafkaLogin, Map.of(ProducerConfig.LINGER_MS_CONFIG, lingerMs)));
            // The broker answers a fetch as soon as a result arrives; the wait only bounds an idle fetch, and a
            // short one just spins the driver and the broker on the machine being measured.
            consumer = PlannerKafka.consumerAtEnd(planner.bootstrap(), Topics.STEP_RESULTS, "planner-steps-benchmark",
                    PlannerKafka.with(kafkaLogin, Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100)));
        }

        /**
         * Open loop at {@code rate}: a thread sends each step at its due time (without waiting for acks) while
         * this one consumes results. Latency counts from the step's due time, so a driver that falls behind
         * cannot hide a slow system (no coordinated omission).
         */
        Stats runAtRate(int count, java.util.function.IntFunction<PlanStep> steps) throws Exception {
            Map<String, Long> dueAt = new ConcurrentHashMap<>();
            long start = System.nanoTime();
            double startMillis = epochMillis(java.time.Instant.now());
            long nanosPerStep = (long) (1e9 / rate);
            Thread sender = new Thread(() -> {
                for (int i = 0; i < count; i++) {
                    long due = start + i * nanosPerStep;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                    PlanStep step = steps.apply(i);
                    dueAt.put(step.stepId(), due);
                    producer.send(signed(step, codec.serialize(codec.envelope(step, "/steps-benchmark", step.planId()))));
                }
                producer.flush();
            }, "steps-benchmark-sender");
            sender.setDaemon(true);
            sender.start();
            Results results = new Results();
            Stages stages = new Stages(stagesFile != null);
            long deadline = System.currentTimeMillis() + 120_000 + count * 20L;
            while (results.count() < count && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    Outcome result = Outcome.of(record.value());
                    Long due = dueAt.remove(result.stepId());
                    if (due != null) {
                        results.add(result.status(), (System.nanoTime() - due) / 1e6);
                        stages.add(startMillis + (due - start) / 1e6, result, record);
                    }
                }
            }
            sender.join(10_000);
            System.err.println(stages.summary());
            if (stagesFile != null) {
                try {
                    stages.write(stagesFile);
                } catch (java.io.IOException e) { // the run's results still matter more than the CSV
                    System.err.println("cannot write --stages-out " + stagesFile + ": " + e);
                }
            }
            return results.stats(count, (System.nanoTime() - start) / 1e9);
        }

        /** Bursts of 500 steps (throughput), or one step at a time ({@code oneAtATime}); at {@code --rate}, an open loop. */
        Stats run(int count, java.util.function.IntFunction<PlanStep> steps, boolean oneAtATime) throws Exception {
            if (rate > 0 && !oneAtATime) {
                return runAtRate(count, steps);
            }
            Map<String, Long> sentAt = new ConcurrentHashMap<>();
            Results results = new Results();
            long start = System.nanoTime();
            int sent = 0;
            long deadline = System.currentTimeMillis() + 120_000 + count * 20L;
            while (results.count() < count && System.currentTimeMillis() < deadline) {
                if (sent < count && (!oneAtATime || sent == results.count())) {
                    int batch = oneAtATime ? 1 : Math.min(count - sent, 500);
                    for (int i = 0; i < batch; i++) {
                        PlanStep step = steps.apply(sent++);
                        EventEnvelope envelope = codec.envelope(step, "/steps-benchmark", step.planId());
                        sentAt.put(step.stepId(), System.nanoTime());
                        producer.send(signed(step, codec.serialize(envelope)));
                    }
                    producer.flush();
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(oneAtATime ? 1 : 20))) {
                    Outcome result = Outcome.of(record.value());
                    Long at = sentAt.remove(result.stepId());
                    if (at == null) {
                        continue;
                    }
                    results.add(result.status(), (System.nanoTime() - at) / 1e6);
                    if (oneAtATime) {
                        forgetAlias();
                    }
                }
            }
            return results.stats(count, (System.nanoTime() - start) / 1e9);
        }

        @Override
        public void close() {
            producer.close();
            consumer.close();
        }
    }
}
