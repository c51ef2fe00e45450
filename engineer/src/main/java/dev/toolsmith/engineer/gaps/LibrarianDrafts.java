package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.engineer.config.EngineerConfig;
import dev.toolsmith.engineer.gaps.LibrarianDraftsApi.LibrarianAnswer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Delivers a draft into the librarian's review queue ({@code POST /tools/pending/drafts}) with the
 * engineer's service key, through {@link LibrarianDraftsApi} (which retries a librarian that is down or
 * failing). Blocking. Failures come back as a reason that never contains the key.
 */
@ApplicationScoped
public class LibrarianDrafts {

    private final EngineerConfig config;
    private final ObjectMapper mapper;
    private final LibrarianDraftsApi librarian;

    public LibrarianDrafts(EngineerConfig config, ContractCodec codec, @RestClient LibrarianDraftsApi librarian) {
        this.config = config;
        this.mapper = codec.mapper();
        this.librarian = librarian;
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
        String librarianAt = "the librarian at " + config.librarianUrl();
        try {
            librarian.submit(key, body);
            return null;
        } catch (LibrarianAnswer e) {
            return librarianAt + " answered " + e.getMessage();
        } catch (ProcessingException e) {
            if (timedOut(e)) {
                return librarianAt + " did not answer in time (3 tries)";
            }
            // The cause names the failure (connection refused, unknown host); the key is a header, never in it.
            return librarianAt + " could not be reached: " + (e.getCause() == null ? e : e.getCause());
        }
    }

    /** The client's read timeout ends a try with a timeout exception somewhere in the cause chain. */
    private static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException || cause instanceof java.net.SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
