package dev.toolsmith.bench.executor;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static dev.toolsmith.testsupport.bench.LatencySamples.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.ExecutionOutcome;
import dev.toolsmith.sandbox.PolicySecretResolver;
import dev.toolsmith.sandbox.SecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import dev.toolsmith.testsupport.bench.LatencySamples;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Executor overhead: the time a call spends in the executor outside the HTTP exchange (input
 * validation, secret decryption, request building, response parsing, output validation), against a
 * local WireMock, compared with the same request sent raw through the same kind of HTTP client.
 * Usage: {@code java -cp target/classes:$(cat target/classpath.txt)
 * dev.toolsmith.bench.executor.ExecutorOverheadBenchmark [--iterations N] [--warmup N]}. The last line is JSON.
 */
@Command(name = "ExecutorOverheadBenchmark", mixinStandardHelpOptions = true,
        description = "Executor overhead against a local WireMock; the last line is JSON.")
public final class ExecutorOverheadBenchmark implements Callable<Integer> {

    @Option(names = "--iterations", defaultValue = "5000", description = "measured calls (default ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--warmup", defaultValue = "3000", description = "calls before measuring (default ${DEFAULT-VALUE})")
    int warmup;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ExecutorOverheadBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        measure(iterations, warmup);
        return 0;
    }

    private static void measure(int iterations, int warmup) throws Exception {
        ObjectMapper json = new ObjectMapper();
        WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")
                .disableRequestJournal().containerThreads(8));
        server.start();
        try {
            server.stubFor(get(urlPathEqualTo("/v1/rate")).willReturn(aResponse().withHeader("Content-Type",
                    "application/json").withBody("{\"from\":\"EUR\",\"to\":\"USD\",\"rate\":1.0842,"
                            + "\"date\":\"2026-01-05\",\"source\":\"ecb\"}")));
            String base = "http://127.0.0.1:" + server.port() + "/v1";
            AesGcmSecretCipher cipher = new AesGcmSecretCipher(new byte[32]);
            SecretResolver secrets = new PolicySecretResolver(Map.of("fx-key", cipher.encrypt("bench-key-123")), cipher);
            ToolManifest tool = rateTool(json, base);
            Map<String, JsonNode> inputs = Map.of("from", json.getNodeFactory().textNode("EUR"),
                    "to", json.getNodeFactory().textNode("USD"), "amount", json.getNodeFactory().numberNode(125.5),
                    "options", json.readTree("{\"round\":4,\"fallback\":true}"));
            WrappedToolExecutor executor = new WrappedToolExecutor(json);
            ExecutionLimits limits = ExecutionLimits.localDevelopment();

            HttpClient rawClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest raw = HttpRequest.newBuilder(URI.create(base
                    + "/rate?from=EUR&to=USD&amount=125.5&options%5Bround%5D=4&options%5Bfallback%5D=true"))
                    .timeout(Duration.ofSeconds(5)).header("X-Api-Key", "bench-key-123")
                    .header("Accept", "application/json, */*;q=0.5").GET().build();

            for (int i = 0; i < warmup; i++) {
                rawClient.send(raw, HttpResponse.BodyHandlers.ofByteArray());
                check(executor.execute(tool, inputs, secrets, limits));
            }
            LatencySamples rawTimes = new LatencySamples(iterations);
            LatencySamples executorTimes = new LatencySamples(iterations);
            LatencySamples overheadTimes = new LatencySamples(iterations);
            for (int i = 0; i < iterations; i++) {
                HttpResponse<byte[]> response = rawTimes.time(
                        () -> rawClient.send(raw, HttpResponse.BodyHandlers.ofByteArray()));
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("raw call failed: HTTP " + response.statusCode());
                }
                ExecutionOutcome outcome = executorTimes.time(() -> executor.execute(tool, inputs, secrets, limits));
                check(outcome);
                overheadTimes.add(outcome.overheadNanos());
            }
            System.out.println(rawTimes.row("raw HTTP call"));
            System.out.println(executorTimes.row("through executor"));
            System.out.println(overheadTimes.row("executor overhead (measured inside the executor)"));
            double rawP50 = rawTimes.p50Ms();
            double rawP99 = rawTimes.p99Ms();
            double exP50 = executorTimes.p50Ms();
            double exP99 = executorTimes.p99Ms();
            double ovP99 = overheadTimes.p99Ms();
            System.out.println(json.createObjectNode().put("iterations", iterations).put("warmup", warmup)
                    .put("raw_p50_ms", round(rawP50)).put("raw_p99_ms", round(rawP99))
                    .put("executor_p50_ms", round(exP50)).put("executor_p99_ms", round(exP99))
                    .put("overhead_p50_ms", round(overheadTimes.p50Ms())).put("overhead_p99_ms", round(ovP99))
                    .put("p50_difference_ms", round(exP50 - rawP50)).put("p99_difference_ms", round(exP99 - rawP99))
                    .put("target_overhead_p99_ms", 2.0).put("met", ovP99 <= 2.0));
        } finally {
            server.stop();
        }
    }

    private static ToolManifest rateTool(ObjectMapper json, String base) throws Exception {
        JsonNode input = json.readTree("""
                {"type":"object","required":["from","to","amount"],"additionalProperties":false,
                 "properties":{
                   "from":{"type":"string","pattern":"^[A-Z]{3}$","description":"ISO 4217 code"},
                   "to":{"type":"string","pattern":"^[A-Z]{3}$"},
                   "amount":{"type":"number","exclusiveMinimum":0,"maximum":1000000000},
                   "options":{"type":"object","properties":{"round":{"type":"integer","minimum":0,"maximum":8},
                              "fallback":{"type":"boolean"}}}}}""");
        JsonNode output = json.readTree("""
                {"type":"object","required":["from","to","rate"],
                 "properties":{"from":{"type":"string"},"to":{"type":"string"},"rate":{"type":"number"},
                   "date":{"type":"string","format":"date"},"source":{"type":"string","enum":["ecb","fed","boe"]}}}""");
        List<ParameterBinding> parameters = List.of(
                new ParameterBinding("from", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("to", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("amount", null, ParameterLocation.QUERY, null, null, true),
                new ParameterBinding("options", null, ParameterLocation.QUERY, "deepObject", true, false));
        HttpBinding binding = new HttpBinding("GET", base, "/rate", parameters, BodyEncoding.NONE,
                new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "fx-key"), 5_000, 0);
        return new ToolManifest("bench.fx", "CONVERT_CURRENCY", "fx rate", "exchange rate", ToolSourceType.OPENAPI,
                "bench", "finance", List.of(), input, output, Risk.READ_ONLY, binding, null, 1, null);
    }

    private static void check(ExecutionOutcome outcome) {
        if (!outcome.succeeded()) {
            throw new IllegalStateException("executor call failed: " + outcome.failureKind() + " " + outcome.reason());
        }
    }
}
