package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Picks the absolute base URL an operation is called at: the operation's servers, else its path's,
 * else the document's (the OpenAPI default is "/"). Server variables take their defaults; a relative
 * URL is resolved against where the document was fetched from or, for a document read from a file,
 * against its recorded origin ({@code info.x-origin}, as API directories record it). https is
 * preferred when a document offers both.
 */
final class ServerResolver {

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}]+)}");

    private final JsonNode document;
    private final URI base;

    ServerResolver(JsonNode document, URI location) {
        this.document = document;
        this.base = httpBase(location).or(() -> origin(document)).orElse(null);
    }

    Optional<String> serverUrl(JsonNode pathItem, JsonNode operation) {
        JsonNode servers = nonEmpty(operation.get("servers"));
        if (servers == null) {
            servers = nonEmpty(pathItem.get("servers"));
        }
        if (servers == null) {
            servers = nonEmpty(document.get("servers"));
        }
        List<String> resolved = new ArrayList<>();
        if (servers == null) {
            absolute("/").ifPresent(resolved::add);
        } else {
            for (JsonNode server : servers) {
                substitute(server).flatMap(this::absolute).ifPresent(resolved::add);
            }
        }
        return resolved.stream().filter(u -> u.startsWith("https://")).findFirst()
                .or(() -> resolved.stream().findFirst());
    }

    String whyNone() {
        return base == null
                ? "the document names no absolute server URL and was not fetched from an http(s) address to resolve"
                        + " its relative one against"
                : "none of the document's server URLs is a usable http(s) URL";
    }

    private static JsonNode nonEmpty(JsonNode servers) {
        return servers != null && servers.isArray() && !servers.isEmpty() ? servers : null;
    }

    private static Optional<String> substitute(JsonNode server) {
        String url = server.path("url").asText("").trim();
        if (url.isEmpty()) {
            return Optional.empty();
        }
        JsonNode variables = server.path("variables");
        Matcher matcher = VARIABLE.matcher(url);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            JsonNode variable = variables.path(matcher.group(1));
            String value = variable.path("default").asText("");
            if (value.isEmpty() && variable.path("enum").isArray() && !variable.path("enum").isEmpty()) {
                value = variable.path("enum").get(0).asText("");
            }
            if (value.isEmpty()) {
                return Optional.empty();
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return Optional.of(out.toString());
    }

    private Optional<String> absolute(String url) {
        try {
            URI uri;
            String lower = url.toLowerCase(Locale.ROOT);
            if (lower.startsWith("http://") || lower.startsWith("https://")) {
                uri = new URI(url);
            } else if (url.startsWith("//")) {
                uri = new URI((base != null ? base.getScheme() : "https") + ":" + url);
            } else if (base != null) {
                uri = base.resolve(new URI(url));
            } else {
                return Optional.empty();
            }
            if (uri.getHost() == null || uri.getHost().isBlank()) {
                return Optional.empty();
            }
            String text = uri.toString();
            while (text.endsWith("/")) {
                text = text.substring(0, text.length() - 1);
            }
            return Optional.of(text);
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private static Optional<URI> httpBase(URI location) {
        if (location == null || location.getScheme() == null) {
            return Optional.empty();
        }
        String scheme = location.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https") ? Optional.of(location) : Optional.empty();
    }

    private static Optional<URI> origin(JsonNode document) {
        JsonNode origin = document.path("info").path("x-origin");
        JsonNode first = origin.isArray() && !origin.isEmpty() ? origin.get(0) : origin;
        String url = first.path("url").asText("");
        try {
            return url.isEmpty() ? Optional.empty() : httpBase(new URI(url));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
