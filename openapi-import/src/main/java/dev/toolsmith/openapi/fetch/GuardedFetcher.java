package dev.toolsmith.openapi.fetch;

import dev.toolsmith.sandbox.egress.EgressRule;
import dev.toolsmith.sandbox.egress.HostLiteral;
import dev.toolsmith.sandbox.egress.PinnedDestinations;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * HTTP(S) GET for documents from outside (OpenAPI specs, manifests, index files) under a policy:
 * only http and https; the host's addresses are checked by {@link AddressPolicy} before connecting;
 * redirects are followed by hand so each hop is checked again; the body is capped while it streams;
 * one deadline covers the whole fetch including redirects. Thread-safe; reuse one instance.
 *
 * <p>The JDK client would resolve the name again when it connects, so a DNS answer that changed between
 * the check and the connection (rebinding) would go unseen: the client's proxy selector
 * ({@link PinnedDestinations}, shared with the sandboxed executor) resolves and checks the name again as
 * the connection is made and connects plain-HTTP requests to the address it checked.
 */
public final class GuardedFetcher {

    private static final String USER_AGENT = "Toolsmith/0.1 (+document fetcher)";

    private final FetchLimits limits;
    private final AddressPolicy policy;
    private final HttpClient client;

    public GuardedFetcher(FetchLimits limits, AddressPolicy policy) {
        this(limits, policy, InetAddress::getAllByName);
    }

    /** With a resolver of its own: tests give one whose answer changes between the check and the connection. */
    public GuardedFetcher(FetchLimits limits, AddressPolicy policy, PinnedDestinations.Resolver resolver) {
        this.limits = limits;
        this.policy = policy;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(new PinnedDestinations(resolver, policy::refusal))
                .connectTimeout(min(limits.timeout(), Duration.ofSeconds(10)))
                .build();
    }

    public FetchLimits limits() {
        return limits;
    }

    public AddressPolicy policy() {
        return policy;
    }

    public FetchedDocument fetch(String url) throws FetchException {
        try {
            return fetch(new URI(url.trim()));
        } catch (URISyntaxException e) {
            throw new FetchException(FetchException.Reason.BAD_URL, "'" + url + "' is not a valid URL: " + e.getReason());
        }
    }

    public FetchedDocument fetch(URI uri) throws FetchException {
        long deadline = System.nanoTime() + limits.timeout().toNanos();
        URI current = uri;
        for (int hop = 0; ; hop++) {
            checkUrl(current);
            policy.resolveAndCheck(HostLiteral.of(current));
            HttpResponse<byte[]> response = send(current, deadline);
            int status = response.statusCode();
            if (status >= 300 && status < 400 && status != 304) {
                if (hop >= limits.maxRedirects()) {
                    throw new FetchException(FetchException.Reason.BAD_REDIRECT, "more than " + limits.maxRedirects()
                            + " redirects fetching " + uri);
                }
                URI from = current;
                String location = response.headers().firstValue("location").orElseThrow(() -> new FetchException(
                        FetchException.Reason.BAD_REDIRECT, from + " answered " + status + " without a Location"));
                current = resolve(from, location);
                continue;
            }
            if (status < 200 || status >= 300) {
                throw new FetchException(FetchException.Reason.HTTP_STATUS, current + " answered HTTP " + status
                        + (status == 404 ? " (not found)" : status == 401 || status == 403 ? " (access denied)" : ""));
            }
            return new FetchedDocument(uri, current, response.body(),
                    response.headers().firstValue("content-type").orElse(null));
        }
    }

    private HttpResponse<byte[]> send(URI target, long deadline) throws FetchException {
        long remainingNanos = deadline - System.nanoTime();
        if (remainingNanos <= 0) {
            throw timeout(target);
        }
        HttpRequest request = HttpRequest.newBuilder(target)
                .GET()
                .timeout(Duration.ofNanos(remainingNanos))
                .header("User-Agent", USER_AGENT)
                .header("Accept", "application/json, application/yaml, text/yaml, */*;q=0.5")
                .build();
        AtomicReference<CappedBodySubscriber> body = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> future;
        try {
            future = client.sendAsync(request, info -> {
                if (info.statusCode() >= 300 && info.statusCode() < 400) {
                    return HttpResponse.BodySubscribers.replacing(new byte[0]);
                }
                long declared = info.headers().firstValueAsLong("content-length").orElse(-1L);
                CappedBodySubscriber subscriber = new CappedBodySubscriber(limits.maxBytes(), declared);
                body.set(subscriber);
                return subscriber;
            });
        } catch (PinnedDestinations.RefusedDestination e) {
            // the name resolved to another address when connecting than when it was checked
            throw new FetchException(e.unresolvable() ? FetchException.Reason.UNREACHABLE
                    : FetchException.Reason.BLOCKED_ADDRESS, e.getMessage());
        }
        try {
            return future.get(remainingNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timeout(target);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new FetchException(FetchException.Reason.TIMEOUT, "fetching " + target + " was interrupted");
        } catch (ExecutionException e) {
            // cancelling an oversized body can surface as the client's "stream cancelled" instead
            CappedBodySubscriber subscriber = body.get();
            if (subscriber != null && subscriber.tooLarge() != null) {
                throw new FetchException(FetchException.Reason.TOO_LARGE, target + ": " + subscriber.tooLarge());
            }
            throw translate(target, e.getCause());
        }
    }

    private FetchException translate(URI target, Throwable cause) {
        Throwable root = cause;
        while (root != null && !(root instanceof CappedBodySubscriber.TooLarge) && root.getCause() != null
                && root.getCause() != root) {
            if (root instanceof HttpTimeoutException || root instanceof ConnectException) {
                break;
            }
            root = root.getCause();
        }
        if (root instanceof CappedBodySubscriber.TooLarge tooLarge) {
            return new FetchException(FetchException.Reason.TOO_LARGE, target + ": " + tooLarge.getMessage());
        }
        if (root instanceof HttpConnectTimeoutException) {
            return new FetchException(FetchException.Reason.UNREACHABLE, "cannot connect to " + hostPort(target)
                    + " (connection timed out)", cause);
        }
        if (root instanceof HttpTimeoutException) {
            return timeout(target);
        }
        if (root instanceof ConnectException || root instanceof UnresolvedAddressException) {
            return new FetchException(FetchException.Reason.UNREACHABLE, "cannot connect to " + hostPort(target)
                    + " (connection refused or host unreachable)", cause);
        }
        if (root instanceof IOException) {
            return new FetchException(FetchException.Reason.UNREACHABLE, "fetching " + target + " failed: "
                    + (root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage()), cause);
        }
        return new FetchException(FetchException.Reason.UNREACHABLE, "fetching " + target + " failed: " + cause, cause);
    }

    private FetchException timeout(URI target) {
        return new FetchException(FetchException.Reason.TIMEOUT, "fetching " + target + " took longer than "
                + limits.timeout().toMillis() + " ms");
    }

    private static void checkUrl(URI uri) throws FetchException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new FetchException(FetchException.Reason.BAD_URL, "'" + uri + "' is not an http(s) URL");
        }
        // before "has no host": Java's URI parser finds none in some spellings of the metadata address
        Optional<String> everyMode = EgressRule.refusal(HostLiteral.of(uri));
        if (everyMode.isPresent()) {
            throw new FetchException(FetchException.Reason.BLOCKED_ADDRESS, everyMode.get());
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new FetchException(FetchException.Reason.BAD_URL, "'" + uri + "' has no host");
        }
        if (uri.getRawUserInfo() != null) {
            throw new FetchException(FetchException.Reason.BAD_URL, "'" + uri
                    + "' carries credentials in the URL; configure them as a secret instead");
        }
    }

    private static URI resolve(URI base, String location) throws FetchException {
        try {
            return base.resolve(new URI(location.trim()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new FetchException(FetchException.Reason.BAD_REDIRECT, base + " redirected to an invalid location '"
                    + location + "'");
        }
    }

    private static String hostPort(URI uri) {
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        return uri.getHost() + ":" + port;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
