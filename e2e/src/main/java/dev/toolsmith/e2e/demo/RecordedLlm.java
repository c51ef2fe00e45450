package dev.toolsmith.e2e.demo;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * An OpenAI-compatible chat-completions endpoint on localhost that plays a recorded conversation
 * ({@code src/main/resources/recorded-llm/<name>.json}), so the planner agent runs a whole goal → tools → result
 * conversation without a network (the demo without TOOLSMITH_LLM_*, and the end-to-end tests). Turn n answers only
 * after turn n-1 did (a WireMock scenario) and only when the conversation's user and tool messages contain every
 * string of its {@code when} — e.g. the tool id a {@code find_tools} result found — so an agent that does not pass
 * what the platform answered back to the model gets no answer (HTTP 404) and fails. {@code ${NAME}} placeholders are
 * filled from {@code values}; an answer with {@code {{...}}} is a WireMock response template over the request (the
 * final answer quotes the converted amount from the tool's result in the conversation).
 */
public final class RecordedLlm implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The contents the recorded turns look into: what the user and the tools said, not the agent's own prompts. */
    private static final String HEARD = "$.messages[?(@.role == 'user' || @.role == 'tool')].content";

    private final WireMockServer server;
    private final int turns;

    private RecordedLlm(WireMockServer server, int turns) {
        this.server = server;
        this.turns = turns;
    }

    /** Serves {@code recorded-llm/<conversation>.json} with {@code values} in place of its {@code ${NAME}}s. */
    public static RecordedLlm start(String conversation, Map<String, String> values) {
        JsonNode recorded = read(conversation, values);
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        int turn = 0;
        for (JsonNode step : recorded.path("turns")) {
            MappingBuilder request = post(urlPathEqualTo("/v1/chat/completions")).inScenario(conversation)
                    .whenScenarioStateIs(turn == 0 ? Scenario.STARTED : "turn " + turn)
                    .willSetStateTo("turn " + (turn + 1));
            for (JsonNode heard : step.path("when")) {
                request.withRequestBody(matchingJsonPath(HEARD, containing(heard.asText())));
            }
            String answer = step.path("answer").toString();
            ResponseDefinitionBuilder response = aResponse().withStatus(200).withHeader("Content-Type", "application/json")
                    .withBody(answer);
            if (answer.contains("{{")) {
                response.withTransformers("response-template");
            }
            server.stubFor(request.willReturn(response));
            turn++;
        }
        return new RecordedLlm(server, turn);
    }

    /** The OpenAI-compatible base URL, for TOOLSMITH_LLM_BASE_URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.port() + "/v1";
    }

    /** How many recorded turns the conversation has. */
    public int turns() {
        return turns;
    }

    /** How many requests got a recorded answer. */
    public long answered() {
        return server.getAllServeEvents().stream().filter(event -> event.getWasMatched()).count();
    }

    /** The requests no recorded turn answered (the agent's conversation went where the recording does not). */
    public List<String> unanswered() {
        return server.findAllUnmatchedRequests().stream().map(LoggedRequest::getBodyAsString).toList();
    }

    private static JsonNode read(String conversation, Map<String, String> values) {
        String name = "/recorded-llm/" + conversation + ".json";
        try (InputStream in = RecordedLlm.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no recorded conversation " + name);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (Map.Entry<String, String> value : values.entrySet()) {
                text = text.replace("${" + value.getKey() + "}", value.getValue());
            }
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }

    @Override
    public void close() {
        server.stop();
    }
}
