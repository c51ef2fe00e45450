package dev.toolsmith.capabilities.mcp;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.search.SearchDefaults;
import dev.toolsmith.search.SearchResult;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolQuery;
import dev.toolsmith.testsupport.KafkaTestResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The librarian's search over Kafka for {@link McpBenchmark}: reads {@code tool-search-requests} and answers
 * each on {@code tool-search-replies} with {@link ToolIndex#search} of {@link ToolQuery#of} the request — the
 * search library and query the librarian's listener uses — sent as its relay sends (CloudEvents content type,
 * {@code linger.ms=0} as the librarian's reply channel). Every caller may use every tool here. Records how
 * long each search took, to tell the search from the hops around it.
 */
final class SearchingLibrarian implements AutoCloseable {

    private final ToolIndex index;
    private final ContractCodec codec = new ContractCodec();
    private final List<Double> searchMs = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    SearchingLibrarian(ToolIndex index) {
        this.index = index;
        this.thread = new Thread(this::run, "searching-librarian");
        thread.setDaemon(true);
        thread.start();
    }

    /** How long each search took (ms), since the last call. */
    List<Double> drainSearchMs() {
        List<Double> out = List.copyOf(searchMs);
        searchMs.clear();
        return out;
    }

    private void run() {
        Properties in = new Properties();
        in.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        in.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-librarian-" + UUID.randomUUID());
        in.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        in.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        in.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        Properties out = new Properties();
        out.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        out.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        out.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        out.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(in);
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(out)) {
            consumer.subscribe(List.of(Topics.TOOL_SEARCH_REQUESTS));
            while (running) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    SearchRequest request = codec.payload(codec.openEnvelope(record.value()), SearchRequest.class);
                    long t0 = System.nanoTime();
                    SearchResult result = index.search(ToolQuery.of(request, tool -> true));
                    searchMs.add((System.nanoTime() - t0) / 1e6);
                    SearchReply reply = new SearchReply(request.requestId(), result.hits(),
                            SearchDefaults.SUBSTITUTION_THRESHOLD, null);
                    ProducerRecord<String, byte[]> answer = new ProducerRecord<>(Topics.TOOL_SEARCH_REPLIES, record.key(),
                            codec.serialize(codec.envelope(reply, "/bench-librarian", record.key())));
                    answer.headers().add("content-type",
                            "application/cloudevents+json; charset=UTF-8".getBytes(StandardCharsets.UTF_8));
                    producer.send(answer);
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
    }
}
