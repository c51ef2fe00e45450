package dev.toolsmith.librarian.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.librarian.catalog.StoredTool;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A benchmark, not a test (runs only with {@code -Dlibrarian.bench=true}): search latency of the service
 * at N tools on three paths — the service's search code in process (validation, access rule, library),
 * REST {@code POST /tools/search} over localhost HTTP, and the Kafka request/reply round trip as the
 * capabilities manager sees it. The catalog is padded with N synthetic tools whose vectors are random
 * unit vectors of the running model's size (embedding 10k tool texts would take minutes and does not
 * change the cost of a query). Every measured query text is new to the service, numbered per path, so each one is
 * embedded: the librarian caches the vectors of texts it has seen ({@code CachingTextEmbedder}), and with the same
 * few texts over and over every path measured a cached vector (until 2026-11-29). {@code in_process_repeated} times
 * that case on purpose: a planner retrying the same request. Prints one JSON line.
 */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
@EnabledIfSystemProperty(named = "librarian.bench", matches = "true")
class SearchServiceBenchmark {

    private static final String[] VERBS = {"get", "list", "create", "update", "delete", "convert", "send", "book",
        "search", "translate", "track", "cancel", "check", "compute", "schedule", "summarize"};
    private static final String[] NOUNS = {"invoice", "weather", "flight", "hotel", "currency", "email", "parcel",
        "stock", "calendar", "meeting", "recipe", "song", "playlist", "ticket", "order", "customer", "payment",
        "document", "image", "contract", "route", "train", "movie", "restaurant", "account", "report", "metric"};
    private static final String[] QUERIES = {"will I need an umbrella in Seattle tomorrow",
        "convert 100 dollars into euros", "send an email to my boss saying I'm late",
        "book a table for four at 8pm", "where is my package", "how is Apple trading today",
        "put a meeting with Anna on my calendar", "translate good morning into Japanese",
        "cancel my order from yesterday", "summarize this long report for me", "find a cheap hotel in Lisbon",
        "play some jazz", "what is the fastest train route to Berlin", "pay the electricity invoice"};

    @Inject
    CatalogProjection projection;

    @Inject
    ToolIndex index;

    @Inject
    ToolSearch search;

    private final ContractCodec codec = new ContractCodec();

    @Test
    void measure() throws Exception {
        int tools = Integer.getInteger("librarian.bench.tools", 10_000);
        int iterations = Integer.getInteger("librarian.bench.iterations", 1_000);
        int warmup = Integer.getInteger("librarian.bench.warmup", 300);

        long loadStart = System.nanoTime();
        projection.load(syntheticTools(tools));
        long loadMs = (System.nanoTime() - loadStart) / 1_000_000;

        double[] inProcess = timeInProcess(warmup, iterations, IN_PROCESS);
        double[] repeated = timeInProcess(warmup, iterations, i -> QUERIES[Math.floorMod(i, QUERIES.length)]);
        double[] rest = timeRest(warmup, iterations);
        double[] kafka = timeKafka(warmup / 3, iterations / 2);

        Runtime rt = Runtime.getRuntime();
        System.gc();
        long heapMb = (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
        long rssMb = rssMb();
        String json = String.format(Locale.ROOT, "{\"tools\":%d,\"iterations\":%d,\"load_ms\":%d,"
                + "\"in_process\":{\"p50_ms\":%.3f,\"p99_ms\":%.3f},"
                + "\"in_process_repeated\":{\"p50_ms\":%.3f,\"p99_ms\":%.3f},\"rest\":{\"p50_ms\":%.3f,\"p99_ms\":%.3f},"
                + "\"kafka_round_trip\":{\"p50_ms\":%.3f,\"p99_ms\":%.3f},\"heap_mb\":%d,\"rss_mb\":%d}",
                index.size(), iterations, loadMs, inProcess[0], inProcess[1], repeated[0], repeated[1], rest[0], rest[1],
                kafka[0], kafka[1], heapMb, rssMb);
        System.out.println("librarian-search-benchmark " + json);
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "librarian-search-benchmark.json"), json);
        assertThat(index.size()).isGreaterThanOrEqualTo(tools);
    }

    /** A query text no other measurement sends, for iteration {@code i} of a path. */
    private static String fresh(String path, int i) {
        return QUERIES[Math.floorMod(i, QUERIES.length)] + " (" + path + " " + i + ")";
    }

    private static final java.util.function.IntFunction<String> IN_PROCESS = i -> fresh("in process", i);

    private double[] timeInProcess(int warmup, int iterations, java.util.function.IntFunction<String> text) {
        double[] ms = new double[iterations];
        for (int i = -warmup; i < iterations; i++) {
            SearchRequest request = new SearchRequest(null, text.apply(i), null, null, null, 5, "planner-a");
            long start = System.nanoTime();
            int hits = search.search(request, "planner-a").hits().size();
            long took = System.nanoTime() - start;
            if (i >= 0) {
                ms[i] = took / 1e6;
            }
            assertThat(hits).isPositive();
        }
        return percentiles(ms);
    }

    private double[] timeRest(int warmup, int iterations) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI uri = URI.create("http://localhost:" + RestAssured.port + "/tools/search");
        double[] ms = new double[iterations];
        for (int i = -warmup; i < iterations; i++) {
            String body = codec.toJson(new SearchRequest(null, fresh("rest", i), null, null, null, 5, null)).toString();
            HttpRequest request = HttpRequest.newBuilder(uri).header("Content-Type", "application/json")
                    .header("X-API-Key", TestTools.PLANNER_KEY).POST(HttpRequest.BodyPublishers.ofString(body)).build();
            long start = System.nanoTime();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            long took = System.nanoTime() - start;
            assertThat(response.statusCode()).isEqualTo(200);
            if (i >= 0) {
                ms[i] = took / 1e6;
            }
        }
        return percentiles(ms);
    }

    /** Send a request, wait for its reply: what the capabilities manager's novel-verb path waits for. */
    private double[] timeKafka(int warmup, int iterations) throws Exception {
        String bootstrap = KafkaTestResource.bootstrapServers();
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("linger.ms", "0");
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("key.deserializer", StringDeserializer.class.getName());
        c.put("value.deserializer", ByteArrayDeserializer.class.getName());
        double[] ms = new double[iterations];
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p);
                KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.TOOL_SEARCH_REPLIES).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
            for (int i = -warmup; i < iterations; i++) {
                String id = "bench-" + UUID.randomUUID();
                byte[] value = codec.serialize(codec.envelope(new SearchRequest(id, fresh("kafka", i),
                        "NOVEL_VERB_" + Math.floorMod(i, 7), null, null, 5, "planner-a"), "/bench", id));
                long start = System.nanoTime();
                producer.send(new ProducerRecord<>(Topics.TOOL_SEARCH_REQUESTS, id, value));
                SearchReply reply = null;
                while (reply == null) {
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                        if (id.equals(r.key())) {
                            reply = codec.payload(codec.openEnvelope(r.value()), SearchReply.class);
                        }
                    }
                    if (System.nanoTime() - start > 10_000_000_000L) {
                        throw new IllegalStateException("no reply to " + id + " within 10 s");
                    }
                }
                long took = System.nanoTime() - start;
                assertThat(reply.error()).isNull();
                if (i >= 0) {
                    ms[i] = took / 1e6;
                }
            }
        }
        return percentiles(ms);
    }

    private List<StoredTool> syntheticTools(int count) {
        Random rnd = new Random(42);
        int dim = index.embedder().dimension();
        List<StoredTool> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String verb = VERBS[rnd.nextInt(VERBS.length)];
            String noun = NOUNS[rnd.nextInt(NOUNS.length)];
            String other = NOUNS[rnd.nextInt(NOUNS.length)];
            ToolManifest tool = TestTools.tool("bench.tool-" + i, (verb + "_" + noun + "_" + i).toUpperCase(Locale.ROOT),
                    verb + " " + noun + " " + i, "Lets you " + verb + " a " + noun + " for a " + other
                            + " using provider " + i + ", with filters by date, owner and status.",
                    "bench-" + noun, other, Risk.READ_ONLY, noun + "_id", "date", "owner")
                    .withVersion(1, "sha256:bench-" + i);
            ToolVectors vectors = new ToolVectors(index.modelId(), unit(rnd, dim), unit(rnd, dim));
            out.add(new StoredTool(new CatalogEntry(tool.id(), 1, 1, CatalogEntry.ACTIVE, tool, List.of(), null, null),
                    vectors));
        }
        return out;
    }

    /** Resident memory of the whole test JVM (service, broker, test clients): an upper bound for the service. */
    private static long rssMb() throws java.io.IOException {
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }

    private static float[] unit(Random rnd, int dim) {
        float[] v = new float[dim];
        double norm = 0;
        for (int i = 0; i < dim; i++) {
            v[i] = (float) rnd.nextGaussian();
            norm += v[i] * v[i];
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < dim; i++) {
            v[i] *= scale;
        }
        return v;
    }

    private static double[] percentiles(double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        return new double[] {sorted[(int) Math.floor(0.50 * (sorted.length - 1))],
            sorted[(int) Math.floor(0.99 * (sorted.length - 1))]};
    }

}
