package dev.toolsmith.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.egress.PinnedDestinations;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Runs one call of a wrapped HTTP tool inside its limits. In order: the inputs are checked against the
 * input schema (nothing is sent when they fail, and the reason names the field); the auth secret is
 * resolved; the request is built from the binding; the destination is checked (approved host, never a
 * link-local or cloud metadata address, public address unless private networks are allowed), before
 * sending and again on the address the client connects to ({@link PinnedDestinations}); the call is
 * made with the binding's timeout and response size cap, following only same-host redirects, each hop
 * checked again; the response is
 * checked against the output schema. Every failure becomes an {@link ExecutionOutcome} with a kind and a
 * short reason; none carries a secret. Thread-safe: one instance serves every tool and caller.
 */
public final class WrappedToolExecutor {

    private static final System.Logger LOG = System.getLogger(WrappedToolExecutor.class.getName());
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

    private final ObjectMapper mapper;
    private final SchemaChecker inputChecker = new SchemaChecker(true);
    private final SchemaChecker outputChecker = new SchemaChecker(false);
    private final RequestAssembler assembler;
    private final Map<ClientKey, HttpClient> clients = new ConcurrentHashMap<>();
    private final PinnedDestinations.Resolver resolver;

    /** One client per connect timeout and address rule: the rule is checked by the client's proxy selector. */
    private record ClientKey(int connectTimeoutMs, boolean allowPrivateNetworks) {
    }

    public WrappedToolExecutor() {
        this(new ObjectMapper());
    }

    public WrappedToolExecutor(ObjectMapper mapper) {
        this(mapper, InetAddress::getAllByName);
    }

    /** With a resolver of its own: tests give one whose answer changes between the check and the connection. */
    WrappedToolExecutor(ObjectMapper mapper, PinnedDestinations.Resolver resolver) {
        this.mapper = mapper;
        this.assembler = new RequestAssembler(mapper);
        this.resolver = resolver;
    }

    public ExecutionOutcome execute(ToolManifest plugin, Map<String, JsonNode> inputs, SecretResolver secrets,
            ExecutionLimits limits) {
        long start = System.nanoTime();
        Map<String, JsonNode> given = inputs == null ? Map.of() : inputs;
        HttpBinding binding = plugin.binding();
        if (binding == null) {
            return refused(FailureKind.INVALID_BINDING, "tool " + plugin.id() + " has no HTTP binding", start);
        }

        ObjectNode inputDocument = mapper.createObjectNode();
        given.forEach((name, value) -> inputDocument.set(name, value == null ? NullNode.getInstance() : value));
        Optional<String> inputProblem = inputChecker.firstProblem(plugin.inputSchema(), inputDocument);
        if (inputProblem.isPresent()) {
            return refused(FailureKind.INVALID_INPUT, "invalid input " + inputProblem.get(), start);
        }

        String secret = null;
        AuthBinding auth = binding.auth();
        if (auth.scheme() != AuthBinding.Scheme.NONE) {
            if (auth.secretName() == null || auth.secretName().isBlank()) {
                return refused(FailureKind.INVALID_BINDING, "auth scheme " + auth.scheme() + " names no secret", start);
            }
            try {
                secret = secrets == null ? SecretResolver.none().resolve(auth.secretName())
                        : secrets.resolve(auth.secretName());
            } catch (SecretUnavailableException e) {
                return refused(FailureKind.SECRET_UNAVAILABLE, e.getMessage(), start);
            }
            if (secret == null || secret.isEmpty()) {
                return refused(FailureKind.SECRET_UNAVAILABLE, "secret '" + auth.secretName() + "' is empty", start);
            }
        }

        PreparedRequest prepared;
        try {
            prepared = assembler.assemble(binding, given, secret);
        } catch (InvalidRequestException e) {
            return refused(e.kind(), Redactor.of(secret).scrub(e.getMessage()), start);
        }
        Set<String> approvedHosts = approvedHosts(prepared.uri(), limits);
        long overhead = System.nanoTime() - start;
        return call(plugin, binding, prepared, approvedHosts, limits, start, overhead);
    }

    private ExecutionOutcome call(ToolManifest plugin, HttpBinding binding, PreparedRequest first,
            Set<String> approvedHosts, ExecutionLimits limits, long start, long overheadSoFar) {
        PreparedRequest prepared = first;
        Redactor redactor = first.redactor();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(binding.timeoutMs());
        Integer lastStatus = null;
        HttpResponse<byte[]> response = null;
        for (int hop = 0; response == null; hop++) {
            DestinationGuard.Refusal refusal = DestinationGuard.check(prepared.uri(), approvedHosts,
                    limits.allowPrivateNetworks(), resolver);
            if (refusal != null) {
                String reason = hop == 0 ? refusal.reason()
                        : "redirect to " + prepared.uri().getHost() + " refused: " + refusal.reason();
                return finish(plugin, prepared, failure(refusal.connectionProblem() ? FailureKind.CONNECTION
                        : FailureKind.DESTINATION_REFUSED, lastStatus, reason, prepared, overheadSoFar, start));
            }
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remainingMs <= 0) {
                return finish(plugin, prepared, failure(FailureKind.TIMEOUT, lastStatus,
                        "timed out after " + binding.timeoutMs() + " ms", prepared, overheadSoFar, start));
            }
            HttpRequest request;
            try {
                request = toHttpRequest(prepared, remainingMs);
            } catch (IllegalArgumentException e) {
                return finish(plugin, prepared, failure(FailureKind.INVALID_BINDING, null,
                        redactor.scrub("the request cannot be sent: " + e.getMessage()), prepared, overheadSoFar, start));
            }
            HttpResponse<byte[]> received;
            CompletableFuture<HttpResponse<byte[]>> future;
            try {
                future = client(limits).sendAsync(request, BoundedBody.handler(binding.maxResponseBytes()));
            } catch (PinnedDestinations.RefusedDestination e) {
                // the name resolved to another address at connect time than when it was checked
                return finish(plugin, prepared, failure(e.unresolvable() ? FailureKind.CONNECTION
                        : FailureKind.DESTINATION_REFUSED, lastStatus, e.getMessage(), prepared, overheadSoFar, start));
            }
            try {
                received = future.get(remainingMs, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                future.cancel(true);
                return finish(plugin, prepared, failure(FailureKind.TIMEOUT, lastStatus,
                        "timed out after " + binding.timeoutMs() + " ms", prepared, overheadSoFar, start));
            } catch (InterruptedException e) {
                future.cancel(true);
                Thread.currentThread().interrupt();
                return finish(plugin, prepared, failure(FailureKind.TIMEOUT, lastStatus, "interrupted while waiting for "
                        + prepared.uri().getHost(), prepared, overheadSoFar, start));
            } catch (ExecutionException | CancellationException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                return finish(plugin, prepared, networkFailure(cause, prepared, binding, limits, lastStatus,
                        overheadSoFar, start));
            }
            int status = received.statusCode();
            Optional<String> location = received.headers().firstValue("Location");
            if (REDIRECTS.contains(status) && location.isPresent()) {
                lastStatus = status;
                if (hop >= limits.maxRedirects()) {
                    return finish(plugin, prepared, failure(FailureKind.HTTP_STATUS, status,
                            "too many redirects (more than " + limits.maxRedirects() + ")", prepared, overheadSoFar,
                            start));
                }
                URI target;
                try {
                    target = prepared.uri().resolve(location.get().trim());
                } catch (IllegalArgumentException e) {
                    return finish(plugin, prepared, failure(FailureKind.HTTP_STATUS, status,
                            "HTTP " + status + " from " + prepared.uri().getHost() + " with an invalid Location header",
                            prepared, overheadSoFar, start));
                }
                prepared = prepared.redirectedTo(target, status);
                continue;
            }
            response = received;
        }
        long post = System.nanoTime();
        ExecutionOutcome outcome = interpret(plugin, response, prepared, overheadSoFar, post, start);
        return finish(plugin, prepared, outcome);
    }

    private ExecutionOutcome interpret(ToolManifest plugin, HttpResponse<byte[]> response, PreparedRequest prepared,
            long overheadSoFar, long post, long start) {
        Redactor redactor = prepared.redactor();
        int status = response.statusCode();
        String host = prepared.uri().getHost();
        String text = response.body() == null ? "" : new String(response.body(), StandardCharsets.UTF_8);
        if (redactor.active()) {
            text = redactor.scrub(text); // an API that echoes the credential must not leak it into results
        }
        if (status < 200 || status > 299) {
            String snippet = snippet(text);
            return failure(FailureKind.HTTP_STATUS, status,
                    "HTTP " + status + " from " + host + (snippet.isEmpty() ? "" : ": " + snippet), prepared,
                    overheadSoFar + (System.nanoTime() - post), start);
        }
        String contentType = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        JsonNode outputs;
        if (text.isBlank()) {
            if (status == 204 || "HEAD".equals(prepared.method()) || isEmptySchema(plugin.outputSchema())) {
                return ExecutionOutcome.success(NullNode.getInstance(), status, prepared.recorded(),
                        overheadSoFar + (System.nanoTime() - post), elapsedMs(start));
            }
            outputs = NullNode.getInstance();
        } else if (contentType.contains("json") || looksLikeJson(text)) {
            try {
                outputs = mapper.readTree(text);
            } catch (JsonProcessingException e) {
                if (contentType.contains("json")) {
                    return failure(FailureKind.INVALID_OUTPUT, status, "the response from " + host
                            + " is not valid JSON: " + e.getOriginalMessage(), prepared,
                            overheadSoFar + (System.nanoTime() - post), start);
                }
                outputs = TextNode.valueOf(text);
            }
        } else {
            outputs = TextNode.valueOf(text);
        }
        Optional<String> outputProblem = outputChecker.firstProblem(plugin.outputSchema(), outputs);
        if (outputProblem.isPresent()) {
            return failure(FailureKind.INVALID_OUTPUT, status,
                    "response does not match the output schema at " + redactor.scrub(outputProblem.get()), prepared,
                    overheadSoFar + (System.nanoTime() - post), start);
        }
        return ExecutionOutcome.success(outputs, status, prepared.recorded(), overheadSoFar + (System.nanoTime() - post),
                elapsedMs(start));
    }

    private ExecutionOutcome networkFailure(Throwable cause, PreparedRequest prepared, HttpBinding binding,
            ExecutionLimits limits, Integer lastStatus, long overhead, long start) {
        String host = prepared.uri().getHost();
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof PinnedDestinations.RefusedDestination refused) {
                return failure(refused.unresolvable() ? FailureKind.CONNECTION : FailureKind.DESTINATION_REFUSED,
                        lastStatus, refused.getMessage(), prepared, overhead, start);
            }
        }
        if (causedBy(cause, BoundedBody.TooLargeException.class)) {
            return failure(FailureKind.RESPONSE_TOO_LARGE, null,
                    "response exceeds " + humanBytes(binding.maxResponseBytes()), prepared, overhead, start);
        }
        if (causedBy(cause, HttpConnectTimeoutException.class)) {
            return failure(FailureKind.TIMEOUT, lastStatus, "could not connect to " + host + " within "
                    + Math.min(limits.connectTimeoutMs(), binding.timeoutMs()) + " ms", prepared, overhead, start);
        }
        if (causedBy(cause, HttpTimeoutException.class)) {
            return failure(FailureKind.TIMEOUT, lastStatus, "timed out after " + binding.timeoutMs() + " ms", prepared,
                    overhead, start);
        }
        if (causedBy(cause, ConnectException.class)) {
            return failure(FailureKind.CONNECTION, lastStatus, "connection refused by " + host, prepared, overhead, start);
        }
        if (causedBy(cause, UnknownHostException.class)) {
            return failure(FailureKind.CONNECTION, lastStatus, "cannot resolve host " + host, prepared, overhead, start);
        }
        if (causedBy(cause, SSLException.class)) {
            return failure(FailureKind.CONNECTION, lastStatus, "TLS handshake with " + host + " failed", prepared,
                    overhead, start);
        }
        String message = messages(cause).toLowerCase(Locale.ROOT);
        String reason;
        if (message.contains("reset")) {
            reason = "connection reset";
        } else if (causedBy(cause, EOFException.class) || message.contains("no bytes") || message.contains("closed")
                || message.contains("eof")) {
            reason = "connection closed by " + host + " before a complete response";
        } else if (cause instanceof CancellationException) {
            reason = "the call to " + host + " was cancelled";
        } else {
            reason = "network error calling " + host + ": " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : " " + cause.getMessage());
        }
        return failure(FailureKind.CONNECTION, lastStatus, prepared.redactor().scrub(reason), prepared, overhead, start);
    }

    private ExecutionOutcome finish(ToolManifest plugin, PreparedRequest prepared, ExecutionOutcome outcome) {
        if (LOG.isLoggable(System.Logger.Level.DEBUG)) {
            // the path template, never the URL: a query may carry an API key
            HttpBinding binding = plugin.binding();
            LOG.log(System.Logger.Level.DEBUG, "{0} {1} {2}{3} -> {4} in {5} ms", plugin.id(), binding.method(),
                    prepared.uri().getHost(), binding.pathTemplate(),
                    outcome.succeeded() ? "HTTP " + outcome.httpStatus() : outcome.failureKind() + " (" + outcome.reason() + ")",
                    outcome.durationMs());
        }
        return outcome;
    }

    private ExecutionOutcome refused(FailureKind kind, String reason, long start) {
        long elapsed = System.nanoTime() - start;
        LOG.log(System.Logger.Level.DEBUG, "call refused before sending: {0} ({1})", kind, reason);
        return ExecutionOutcome.failure(kind, null, reason, null, elapsed, TimeUnit.NANOSECONDS.toMillis(elapsed));
    }

    private static ExecutionOutcome failure(FailureKind kind, Integer status, String reason, PreparedRequest prepared,
            long overhead, long start) {
        return ExecutionOutcome.failure(kind, status, prepared.redactor().scrub(reason), prepared.recorded(), overhead,
                elapsedMs(start));
    }

    private static HttpRequest toHttpRequest(PreparedRequest prepared, long remainingMs) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(prepared.uri())
                .timeout(Duration.ofMillis(remainingMs))
                .method(prepared.method(), prepared.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(prepared.body()));
        for (Map.Entry<String, String> header : prepared.headers()) {
            builder.header(header.getKey(), header.getValue());
        }
        return builder.build();
    }

    private HttpClient client(ExecutionLimits limits) {
        return clients.computeIfAbsent(new ClientKey(limits.connectTimeoutMs(), limits.allowPrivateNetworks()),
                key -> HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(HttpClient.Redirect.NEVER) // every hop is checked here, not followed blindly
                        .connectTimeout(Duration.ofMillis(key.connectTimeoutMs()))
                        .proxy(DestinationGuard.atConnect(key.allowPrivateNetworks(), resolver))
                        .build());
    }

    private static Set<String> approvedHosts(URI serverUri, ExecutionLimits limits) {
        Set<String> hosts = new HashSet<>(limits.additionalHosts());
        hosts.add(DestinationGuard.hostOf(serverUri));
        return Set.copyOf(hosts);
    }

    private static boolean isEmptySchema(JsonNode schema) {
        return schema == null || schema.isNull() || schema.isMissingNode() || (schema.isObject() && schema.isEmpty());
    }

    private static boolean looksLikeJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '{' || c == '[';
            }
        }
        return false;
    }

    private static String snippet(String body) {
        String oneLine = body.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
    }

    static String humanBytes(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KB";
        }
        return bytes + " bytes";
    }

    private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String messages(Throwable error) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = error; t != null; t = t.getCause()) {
            all.append(t.getClass().getSimpleName()).append(' ').append(t.getMessage()).append(' ');
        }
        return all.toString();
    }

    private static long elapsedMs(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
