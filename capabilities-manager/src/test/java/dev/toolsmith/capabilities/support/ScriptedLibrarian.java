package dev.toolsmith.capabilities.support;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.testsupport.KafkaTestResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Plays the librarian on the real broker: reads {@code tool-search-requests} and answers on
 * {@code tool-search-replies} (as the librarian's outbox relay would, CloudEvents header included) with whatever the test scripted for the request's verb; a verb with no
 * script gets no answer (the librarian is "down" for it). Remembers every request it saw.
 */
public final class ScriptedLibrarian {

    private static ScriptedLibrarian instance;

    private final Map<String, Function<SearchRequest, SearchReply>> scripts = new ConcurrentHashMap<>();
    private final List<SearchRequest> seen = new CopyOnWriteArrayList<>();
    private final ContractCodec codec = new ContractCodec();

    public static synchronized ScriptedLibrarian get() {
        if (instance == null) {
            instance = new ScriptedLibrarian();
            instance.start();
        }
        return instance;
    }

    /** Answers the requests for {@code verb} (or, for a search without a verb, with this query text). */
    public void answer(String verb, Function<SearchRequest, SearchReply> reply) {
        scripts.put(verb, reply);
    }

    public List<SearchRequest> requestsFor(String verb) {
        return seen.stream().filter(r -> java.util.Objects.equals(verb, r.verb())).toList();
    }

    private void start() {
        Thread thread = new Thread(this::run, "scripted-librarian");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaTestResource.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "scripted-librarian-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props);
                RelayLikeProducer replies = new RelayLikeProducer()) {
            consumer.subscribe(List.of(Topics.TOOL_SEARCH_REQUESTS));
            while (!Thread.currentThread().isInterrupted()) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    SearchRequest request = codec.payload(codec.openEnvelope(record.value()), SearchRequest.class);
                    seen.add(request);
                    // a search without a verb (find_tools over MCP) is scripted by its query text
                    Function<SearchRequest, SearchReply> script = scripts.get(request.verb() != null ? request.verb()
                            : request.queryText());
                    if (script != null) {
                        replies.send(Topics.TOOL_SEARCH_REPLIES, record.key(), script.apply(request));
                    }
                }
            }
        }
    }
}
