package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import dev.toolsmith.e2e.demo.Demo;
import dev.toolsmith.e2e.demo.FxRatesApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The demo's whole flow, asserted: airlock source → scan → approval with a policy → the engineer's
 * verified build → a novel verb over Kafka substituted by search → the learned alias → an unservable step
 * and its capability gap → a raw MCP session that finds, describes, loads, calls and unloads the tool → the reference
 * planner agent reaching a goal over MCP with recorded LLM answers. {@link Demo#run} throws naming the first stage that did not happen. Then the
 * substituted step is followed through its trace: one trace id from the capabilities manager's intake,
 * across Kafka into the librarian's search, and back to the execution of the substituted tool.
 */
@ExtendWith(Platform.class)
class DemoIT {

    @Test
    void everyStageOfTheDemoHappens() throws Exception {
        // the platform's logs keep earlier runs' lines: only what is written from here on may show this run's trace
        Path logs = Platform.get().state().resolve("logs");
        long capabilitiesFrom = SpanLog.end(logs.resolve("capabilities-manager.log"));
        long librarianFrom = SpanLog.end(logs.resolve("librarian.log"));
        try (FxRatesApi api = new FxRatesApi()) {
            new Demo(Platform.kafka(), Platform.get().kafkaLogin("planner"), Platform.librarian(), Platform.capabilities(),
                    Platform.get().adminKey(), "planner", Platform.get().plannerKey()).run(api);
            // the two substituted steps, the raw MCP session's call of the loaded tool and the planner agent's call_tool
            assertThat(api.conversions()).as("every stage's call really reached the API").isEqualTo(4);
        }
        assertTheNovelVerbWasServedOnConfidenceAlone();
        assertOneTraceFollowsTheSubstitutedStep(logs, capabilitiesFrom, librarianFrom);
    }

    /**
     * CONVERT_CURRENCY was substituted on search confidence alone: the alias its first step taught records the
     * confidence it was served with, at or above the librarian's threshold (SearchDefaults.SUBSTITUTION_THRESHOLD),
     * so the capabilities manager's contract-confirmed rule (under the threshold, inputs exactly the tool's
     * parameters; off by default since 2026-11-29) was not what served it.
     */
    private void assertTheNovelVerbWasServedOnConfidenceAlone() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(Platform.capabilities() + "/aliases")).header("X-API-Key", Platform.get().adminKey())
                .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET /aliases: " + response.body()).isEqualTo(200);
        JsonNode learned = null;
        for (JsonNode alias : new ObjectMapper().readTree(response.body())) {
            if (alias.path("verb").asText().equals(VerbNormalizer.normalize("CONVERT_CURRENCY"))) {
                learned = alias;
            }
        }
        assertThat(learned).as("the alias learned from the CONVERT_CURRENCY substitution").isNotNull();
        assertThat(learned.path("confidence").asDouble()).as("the search confidence CONVERT_CURRENCY was substituted with")
                .isGreaterThanOrEqualTo(0.95);
    }

    private void assertOneTraceFollowsTheSubstitutedStep(Path logs, long capabilitiesFrom, long librarianFrom)
            throws Exception {
        // Spans are exported in batches: give the last batch time to reach the logs.
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Optional<String> followed = Optional.empty();
        while (followed.isEmpty() && System.nanoTime() < end) {
            SpanLog capabilities = SpanLog.of(logs.resolve("capabilities-manager.log"), capabilitiesFrom);
            SpanLog librarian = SpanLog.of(logs.resolve("librarian.log"), librarianFrom);
            followed = capabilities.traces("step CONVERT_CURRENCY").stream()
                    .filter(trace -> capabilities.has("search", trace) && librarian.has("search", trace)
                            && capabilities.has("execute fx-rates:convert_amount", trace))
                    .findFirst();
            if (followed.isEmpty()) {
                Thread.sleep(500);
            }
        }
        assertThat(followed).as("a trace with the step's intake, the search in both services and the execution of the "
                + "substituted tool, in " + logs).isPresent();
    }
}
