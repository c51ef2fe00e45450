package dev.toolsmith.librarian.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.CatalogSeeder;
import dev.toolsmith.librarian.TestTools;
import dev.toolsmith.search.SearchDefaults;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.LogCapture;
import dev.toolsmith.testsupport.PostgresTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Novel-verb search over Kafka: tool-search-requests answered on tool-search-replies, keyed by request id. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_librarian"))
class SearchRequestsTest {

    private final ContractCodec codec = new ContractCodec();

    @Inject
    CatalogSeeder seeder;

    @Test
    void aRequestIsAnsweredWithRankedHitsAndTheCalibratedThreshold() {
        index(TestTools.currency("kr.currency"));
        index(TestTools.weather("kr.weather"));
        String stepId = "step-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader replies = kafka.reader(Topics.TOOL_SEARCH_REPLIES)) {
            kafka.send(Topics.TOOL_SEARCH_REQUESTS, stepId, new SearchRequest(stepId,
                    "convert 100 dollars into euros", "CONVERT_CURRENCY", List.of("USD", "EUR"), null, 5, "planner-a"));
            ConsumerRecord<String, byte[]> record = only(replies.awaitMatching(r -> stepId.equals(r.key()),
                    Duration.ofSeconds(30)));
            SearchReply reply = codec.payload(codec.openEnvelope(record.value()), SearchReply.class);
            assertThat(reply.requestId()).isEqualTo(stepId);
            assertThat(reply.error()).isNull();
            assertThat(reply.substitutionThreshold()).isEqualTo(SearchDefaults.SUBSTITUTION_THRESHOLD);
            assertThat(reply.hits()).isNotEmpty().hasSizeLessThanOrEqualTo(5);
            // Other tests index look-alikes (same verb) into the same index: the right kind comes first.
            assertThat(reply.hits().get(0).verb()).isEqualTo("CONVERT_CURRENCY");
            assertThat(reply.hits()).extracting(h -> h.toolId()).contains("kr.currency");
            // No CloudEvents content type: SmallRye consumers without cloud-events=false would turn the record
            // into a JsonObject and fail on it (see SearchRequestListener#reply).
            assertThat(replies.headersOf(record)).doesNotContainKey("content-type");
        }
    }

    @Test
    void theReplyContinuesTheTraceOfTheRequestAndItsLogLinesNameTheStepAndTrace() {
        index(TestTools.weather("tr.weather"));
        String stepId = "step-" + UUID.randomUUID();
        String traceId = UUID.randomUUID().toString().replace("-", "");
        String askingSpan = "00f067aa0ba902b7";
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader replies = kafka.reader(Topics.TOOL_SEARCH_REPLIES);
                LogCapture log = LogCapture.of(SearchRequestListener.class, Level.FINE)) {
            EventEnvelope request = kafka.codec().envelope(new SearchRequest(stepId, "weather forecast for a city",
                    "GET_FORECAST", List.of("city"), null, 5, "planner-a"), "/test", stepId)
                    .withTraceparent("00-" + traceId + "-" + askingSpan + "-01");
            kafka.send(Topics.TOOL_SEARCH_REQUESTS, stepId, request);

            EventEnvelope reply = codec.openEnvelope(only(replies.awaitMatching(r -> stepId.equals(r.key()),
                    Duration.ofSeconds(30))).value());
            assertThat(codec.payload(reply, SearchReply.class).error()).isNull();
            // 00-<trace id>-<span id>-<flags>: the same trace, from the librarian's own "search" span
            assertThat(reply.traceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
            String[] parts = reply.traceparent().split("-");
            assertThat(parts[1]).isEqualTo(traceId);
            assertThat(parts[2]).isNotEqualTo(askingSpan);

            // What the librarian logs while answering carries the step and trace ids of the asking step.
            assertThat(log.lines()).filteredOn(line -> line.message().startsWith("search for GET_FORECAST"))
                    .filteredOn(line -> stepId.equals(line.mdc().get("stepId")))
                    .singleElement()
                    .satisfies(line -> assertThat(line.mdc()).containsEntry("traceId", traceId));
        }
    }

    @Test
    void anInvalidRequestIsAnsweredWithAnErrorAndDeadLettered() {
        String badLimit = "step-" + UUID.randomUUID();
        String garbage = "step-" + UUID.randomUUID();
        String unknownNamespace = "step-" + UUID.randomUUID();
        try (KafkaTestClient kafka = new KafkaTestClient(KafkaTestResource.bootstrapServers());
                KafkaTestClient.Reader replies = kafka.reader(Topics.TOOL_SEARCH_REPLIES);
                KafkaTestClient.Reader dlq = kafka.reader(Topics.deadLetter(Topics.TOOL_SEARCH_REQUESTS))) {
            EventEnvelope envelope = kafka.codec().envelope(new SearchRequest(badLimit, "weather", null, null, null, 5,
                    null), "/test", badLimit);
            ((com.fasterxml.jackson.databind.node.ObjectNode) envelope.data()).put("limit", 500);
            kafka.send(Topics.TOOL_SEARCH_REQUESTS, badLimit, envelope);
            kafka.sendRaw(Topics.TOOL_SEARCH_REQUESTS, garbage, "\u00ff\u0000garbage".getBytes(StandardCharsets.UTF_8));
            kafka.send(Topics.TOOL_SEARCH_REQUESTS, unknownNamespace, new SearchRequest(unknownNamespace, "weather",
                    null, null, new SearchFilters("nowhere", null, null, null), 5, null));

            for (String id : List.of(badLimit, garbage, unknownNamespace)) {
                SearchReply reply = codec.payload(codec.openEnvelope(only(replies.awaitMatching(
                        r -> id.equals(r.key()), Duration.ofSeconds(30))).value()), SearchReply.class);
                assertThat(reply.error()).startsWith("invalid search request");
                assertThat(reply.hits()).isEmpty();
                assertThat(dlq.awaitMatching(r -> id.equals(r.key()), Duration.ofSeconds(30))).hasSize(1);
            }
            SearchReply limit = codec.payload(codec.openEnvelope(replies.awaitMatching(r -> badLimit.equals(r.key()),
                    Duration.ofSeconds(1)).get(0).value()), SearchReply.class);
            assertThat(limit.error()).contains("/limit");
            SearchReply namespace = codec.payload(codec.openEnvelope(replies.awaitMatching(
                    r -> unknownNamespace.equals(r.key()), Duration.ofSeconds(1)).get(0).value()), SearchReply.class);
            assertThat(namespace.error()).contains("nowhere");
        }
    }

    private void index(ToolManifest tool) {
        assertThat(seeder.seed(tool).newVersion()).isTrue();
    }

    private static <T> T only(List<T> matches) {
        assertThat(matches).hasSize(1);
        return matches.get(0);
    }
}
