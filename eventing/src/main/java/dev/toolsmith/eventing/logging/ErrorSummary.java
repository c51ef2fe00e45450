package dev.toolsmith.eventing.logging;

import java.util.regex.Pattern;

/**
 * The gist of a client library's error message, safe to log and to show: its first line only (HTTP
 * clients quote whole response bodies), at most 300 characters, with anything that looks like a key or
 * token blanked (endpoints such as OpenAI-compatible LLMs quote the presented key in their 401 answers).
 * Shared by every service that calls an outside endpoint with a secret (the engineer's LLM client, the
 * capabilities manager's plan decomposer).
 */
public final class ErrorSummary {

    /** {@code sk-…} style keys, bearer tokens, and any long opaque run of key characters. */
    private static final Pattern SECRET = Pattern.compile(
            "(?i)\\b(?:sk|pk|rk)-[A-Za-z0-9*_\\-]{4,}|(?i)bearer\\s+\\S+|[A-Za-z0-9*_\\-+/=]{32,}");
    private static final int MAX = 300;

    private ErrorSummary() {
    }

    public static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "no detail given";
        }
        String first = message.strip().lines().findFirst().orElse("").strip();
        first = SECRET.matcher(first).replaceAll("[redacted]");
        return first.length() <= MAX ? first : first.substring(0, MAX) + "…";
    }
}
