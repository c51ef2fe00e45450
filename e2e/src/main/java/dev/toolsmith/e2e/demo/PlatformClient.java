package dev.toolsmith.e2e.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JSON over HTTP to one Toolsmith service, authenticated with an API key. */
final class PlatformClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final String baseUrl;
    private final String apiKey;

    PlatformClient(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.apiKey = apiKey;
    }

    JsonNode get(String path) {
        HttpResponse<String> response = send(request(path).GET());
        return body(path, response, 200);
    }

    /** The body, or null while the resource does not exist yet (404). */
    JsonNode getOrNull(String path) {
        HttpResponse<String> response = send(request(path).GET());
        return response.statusCode() == 404 ? null : body(path, response, 200);
    }

    JsonNode post(String path, JsonNode payload, int expectedStatus) {
        HttpResponse<String> response = send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(payload.toString())));
        return body(path, response, expectedStatus);
    }

    int delete(String path) {
        return send(request(path).DELETE()).statusCode();
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT).header("X-API-Key", apiKey)
                .header("Accept", "application/json");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + baseUrl + " (is the platform up? ./toolsmith status)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private JsonNode body(String path, HttpResponse<String> response, int expectedStatus) {
        if (response.statusCode() != expectedStatus) {
            throw new IllegalStateException(response.request().method() + " " + path + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        try {
            return response.body().isBlank() ? json.nullNode() : json.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(path + " did not answer JSON: " + response.body(), e);
        }
    }
}
