package dev.toolsmith.sandbox;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The limits of one execution that are not part of the plugin itself.
 *
 * @param allowPrivateNetworks lets calls reach loopback and private addresses; only for local development
 *        and the engineer's verification against an in-process stub. Link-local and cloud metadata
 *        addresses stay refused even then ({@link dev.toolsmith.sandbox.egress.EgressRule})
 * @param maxRedirects how many same-host redirects are followed (a redirect to another host is always refused)
 * @param connectTimeoutMs the TCP connect limit; the binding's {@code timeoutMs} bounds the whole call
 * @param additionalHosts other hosts of the approved spec the call may reach besides the serverUrl's
 */
public record ExecutionLimits(boolean allowPrivateNetworks, int maxRedirects, int connectTimeoutMs,
        Set<String> additionalHosts) {

    public static final int DEFAULT_MAX_REDIRECTS = 3;
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

    public ExecutionLimits {
        maxRedirects = Math.max(0, maxRedirects);
        connectTimeoutMs = connectTimeoutMs <= 0 ? DEFAULT_CONNECT_TIMEOUT_MS : connectTimeoutMs;
        additionalHosts = additionalHosts == null ? Set.of()
                : additionalHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }

    /** Real calls: public addresses only. */
    public static ExecutionLimits production() {
        return new ExecutionLimits(false, DEFAULT_MAX_REDIRECTS, DEFAULT_CONNECT_TIMEOUT_MS, Set.of());
    }

    /** Local development, tests and verification against a stub on this machine. */
    public static ExecutionLimits localDevelopment() {
        return new ExecutionLimits(true, DEFAULT_MAX_REDIRECTS, DEFAULT_CONNECT_TIMEOUT_MS, Set.of());
    }
}
