package dev.toolsmith.engineer.verify;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.request;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.ExecutionOutcome;
import dev.toolsmith.sandbox.FailureKind;
import dev.toolsmith.sandbox.SecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Runs a plugin's suite through the shared executor against an in-process WireMock server on a random
 * port. Each verification gets its own path prefix on the server, so concurrent verifications never see
 * each other's stubs or requests. For each case the stub is primed with the case's response at the
 * operation's method and path; the plugin, pointed at the stub (private addresses allowed for this run
 * only), runs the case; and the request the stub received is compared with the case's expected request.
 * The invalid-input case passes only when the executor refuses it and the stub received nothing.
 * Thread-safe; one instance serves every build. Close it to stop the server.
 */
public final class PluginVerifier implements AutoCloseable {

    private static final String PREFIX_ROOT = "/_verify/";

    private final WireMockServer server;
    private final WrappedToolExecutor executor;
    private final ReceivedRequestCheck check;
    private final AtomicLong runs = new AtomicLong();

    public PluginVerifier(WrappedToolExecutor executor, ObjectMapper mapper) {
        this.executor = executor;
        this.check = new ReceivedRequestCheck(mapper);
        this.server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1")
                .containerThreads(16).asynchronousResponseEnabled(false));
        this.server.start();
    }

    public int port() {
        return server.port();
    }

    public VerificationReport verify(ToolManifest plugin, VerificationSuite suite) {
        long start = System.nanoTime();
        String prefix = PREFIX_ROOT + runs.incrementAndGet();
        String stubBase = "http://127.0.0.1:" + server.port() + prefix;
        ToolManifest local = pointedAt(plugin, stubBase);
        SecretResolver secrets = name -> suite.verificationSecret();
        ExecutionLimits limits = new ExecutionLimits(true, 0, 2_000, Set.of());
        List<CaseResult> results = new ArrayList<>();
        List<StubMapping> stubs = new ArrayList<>();
        try {
            for (VerificationCase c : suite.cases()) {
                results.add(run(c, local, prefix, secrets, limits, stubs));
            }
        } finally {
            stubs.forEach(server::removeStub);
            server.removeServeEventsMatching(anyRequestedFor(urlPathMatching(Pattern.quote(prefix) + "(/.*)?")).build());
        }
        boolean passed = results.stream().allMatch(CaseResult::passed);
        return new VerificationReport(passed, results, (System.nanoTime() - start) / 1_000_000);
    }

    private CaseResult run(VerificationCase c, ToolManifest local, String prefix, SecretResolver secrets,
            ExecutionLimits limits, List<StubMapping> stubs) {
        String kind = c.kind().name();
        if (c.kind() == CaseKind.INVALID_INPUT) {
            if (c.expectedRefusal() == null) {
                return new CaseResult(c.name(), kind, true, c.note());
            }
            StubMapping anything = server.stubFor(any(urlPathMatching(Pattern.quote(prefix) + "(/.*)?"))
                    .atPriority(10).willReturn(aResponse().withStatus(200).withBody("{}")));
            stubs.add(anything);
            ExecutionOutcome outcome = executor.execute(local, c.inputs(), secrets, limits);
            List<LoggedRequest> received = takeReceived(prefix);
            if (outcome.failureKind() == FailureKind.INVALID_INPUT && received.isEmpty()) {
                return new CaseResult(c.name(), kind, true, "refused before sending: " + outcome.reason());
            }
            return new CaseResult(c.name(), kind, false, "input " + c.expectedRefusal() + " breaks the schema but "
                    + (received.isEmpty() ? "the executor answered " + describe(outcome)
                            : received.size() + " request(s) reached the server"));
        }
        HttpBinding binding = c.kind() == CaseKind.HEALTH_PROBE ? local.healthProbe().binding() : local.binding();
        ToolManifest subject = c.kind() == CaseKind.HEALTH_PROBE ? probeTool(local) : local;
        String basePath = URI.create(binding.serverUrl()).getRawPath();
        StubMapping stub = server.stubFor(request(binding.method(), urlPathMatching(pathRegex(basePath, binding.pathTemplate())))
                .atPriority(1).willReturn(response(c.response())));
        stubs.add(stub);
        ExecutionOutcome outcome;
        List<LoggedRequest> received;
        try {
            outcome = executor.execute(subject, c.inputs(), secrets, limits);
            received = takeReceived(prefix);
        } finally {
            server.removeStub(stub);
            stubs.remove(stub);
        }
        List<String> problems = new ArrayList<>();
        if (!outcome.succeeded()) {
            problems.add("the executor failed: " + describe(outcome) + hint(outcome));
        }
        if (received.size() != 1) {
            problems.add(received.size() + " requests reached the stub, expected exactly 1");
        } else {
            problems.addAll(check.differences(c.request(), received.get(0), basePath));
        }
        if (outcome.succeeded() && c.response() != null && c.response().body() != null
                && !c.response().body().equals(ReceivedRequestCheck.NUMERIC, outcome.outputs())) {
            problems.add("the outputs differ from the stub's response");
        }
        if (!problems.isEmpty()) {
            return new CaseResult(c.name(), kind, false, String.join("; ", problems));
        }
        LoggedRequest request = received.get(0);
        return new CaseResult(c.name(), kind, true, "HTTP " + outcome.httpStatus() + "; " + request.getMethod().getName()
                + " " + ReceivedRequestCheck.abbreviate(request.getUrl().substring(prefix.length()))
                + " matched the binding" + (c.response() == null || c.response().origin() == null ? ""
                        : "; response: " + c.response().origin()));
    }

    private static String describe(ExecutionOutcome outcome) {
        return outcome.succeeded() ? "success (HTTP " + outcome.httpStatus() + ")" : outcome.failureKind() + " " + outcome.reason();
    }

    private static String hint(ExecutionOutcome outcome) {
        if (outcome.failureKind() == FailureKind.INVALID_INPUT) {
            return " (the case's value, from the spec or generated, is refused: fix or add an example for this input in the spec)";
        }
        if (outcome.failureKind() == FailureKind.INVALID_OUTPUT) {
            return " (add a response example that matches the response schema to the spec)";
        }
        return "";
    }

    private List<LoggedRequest> takeReceived(String prefix) {
        RequestPatternBuilder pattern = anyRequestedFor(urlPathMatching(Pattern.quote(prefix) + "(/.*)?"));
        List<LoggedRequest> received = server.findAll(pattern);
        server.removeServeEventsMatching(pattern.build());
        return received;
    }

    private static ResponseDefinitionBuilder response(StubResponse response) {
        ResponseDefinitionBuilder builder = aResponse().withStatus(response == null ? 200 : response.status());
        if (response != null && response.body() != null && response.status() != 204) {
            builder.withHeader("Content-Type", "application/json").withBody(response.body().toString());
        }
        return builder;
    }

    /** The stub's path pattern: the base path, then the template with each {param} as one path segment. */
    static String pathRegex(String basePath, String template) {
        StringBuilder regex = new StringBuilder(Pattern.quote(basePath == null ? "" : basePath));
        String path = ExpectedRequestBuilder.pathOnly(template);
        int i = 0;
        while (i < path.length()) {
            int open = path.indexOf('{', i);
            if (open < 0) {
                regex.append(Pattern.quote(path.substring(i)));
                break;
            }
            int close = path.indexOf('}', open);
            if (close < 0) {
                regex.append(Pattern.quote(path.substring(i)));
                break;
            }
            if (open > i) {
                regex.append(Pattern.quote(path.substring(i, open)));
            }
            regex.append("[^/]+");
            i = close + 1;
        }
        return regex.toString();
    }

    static ToolManifest pointedAt(ToolManifest plugin, String stubBase) {
        HealthProbe probe = plugin.healthProbe();
        HealthProbe localProbe = probe == null || !probe.available() ? probe
                : new HealthProbe(rebased(probe.binding(), stubBase), probe.inputs(), probe.intervalSeconds(), null);
        return new ToolManifest(plugin.id(), plugin.verb(), plugin.name(), plugin.description(), plugin.source(),
                plugin.namespace(), plugin.domain(), plugin.tags(), plugin.inputSchema(), plugin.outputSchema(),
                plugin.risk(), rebased(plugin.binding(), stubBase), localProbe, plugin.version(), plugin.contentHash());
    }

    private static HttpBinding rebased(HttpBinding binding, String stubBase) {
        String basePath = URI.create(binding.serverUrl()).getRawPath();
        String url = stubBase + (basePath == null ? "" : basePath.replaceAll("/+$", ""));
        return new HttpBinding(binding.method(), url, binding.pathTemplate(), binding.parameters(), binding.bodyEncoding(),
                binding.auth(), binding.timeoutMs(), binding.maxResponseBytes());
    }

    /** The probe runs as a tool of its own: its binding, no schemas (its operation's output is not this tool's). */
    private static ToolManifest probeTool(ToolManifest local) {
        return new ToolManifest(local.id() + "#health", local.verb(), local.name(), local.description(), local.source(),
                local.namespace(), local.domain(), local.tags(), null, null, local.risk(), local.healthProbe().binding(),
                null, local.version(), null);
    }

    @Override
    public void close() {
        server.stop();
    }
}
