package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.config.EngineerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Delivers a draft into the librarian's review queue ({@code POST /tools/pending/drafts}) with the
 * engineer's service key. Blocking. Failures come back as a reason that never contains the key.
 */
@ApplicationScoped
public class LibrarianDrafts {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final EngineerConfig config;
    private final ObjectMapper mapper;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    public LibrarianDrafts(EngineerConfig config, ContractCodec codec) {
        this.config = config;
        this.mapper = codec.mapper();
    }

    /** Null when the librarian took the draft; otherwise why not. */
    public String deliver(BuildRequest request, ToolManifest draft, List<String> inputNames) {
        String key = config.serviceApiKey().filter(k -> !k.isBlank()).orElse(null);
        if (key == null) {
            return "toolsmith.engineer.service-api-key is not set, so the draft cannot be sent to the librarian";
        }
        ObjectNode body = mapper.createObjectNode();
        body.put("normalizedVerb", request.normalizedVerb);
        // as DraftRunner drafted it: a request recorded before the verb was kept has none, and the librarian requires one
        body.put("actionVerb", request.actionVerb == null ? request.normalizedVerb : request.actionVerb);
        body.put("description", request.description);
        body.set("inputNames", mapper.valueToTree(inputNames));
        body.set("manifest", mapper.valueToTree(draft));
        String url = config.librarianUrl().replaceAll("/+$", "") + "/tools/pending/drafts";
        try {
            HttpRequest post = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                    .header("Content-Type", "application/json").header("X-API-Key", key)
                    .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body))).build();
            HttpResponse<String> response = client.send(post, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 == 2) {
                return null;
            }
            String answer = response.body() == null ? "" : response.body();
            return "the librarian at " + url + " answered " + response.statusCode() + ": "
                    + (answer.length() <= 300 ? answer : answer.substring(0, 300) + "…");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while sending the draft to " + url;
        } catch (Exception e) {
            return "the librarian at " + url + " could not be reached: " + e;
        }
    }
}
