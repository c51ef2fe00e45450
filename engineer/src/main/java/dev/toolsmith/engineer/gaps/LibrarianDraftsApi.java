package dev.toolsmith.engineer.gaps;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.temporal.ChronoUnit;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import io.quarkus.rest.client.reactive.ClientExceptionMapper;

/**
 * The librarian's review queue for drafts ({@code quarkus.rest-client.librarian.url}). A librarian that is
 * down, starting or overloaded (no answer, a 5xx, no answer within {@code quarkus.rest-client.librarian.read-timeout})
 * is tried twice more a second apart; a refusal (4xx) is final. Whatever still fails is retried on the gap's next event.
 * The time a try may take is the client's read timeout, not a fault-tolerance {@code @Timeout}: with
 * {@code @Timeout} on this method, set to 2 s in the test through either configuration form, a librarian answering
 * after 5 s was still waited for and its answer taken (FindOrBuildDraftsTest), so the promise did not hold.
 */
@RegisterRestClient(configKey = "librarian")
@Path("/tools/pending/drafts")
public interface LibrarianDraftsApi {

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Retry(maxRetries = 2, delay = 1, delayUnit = ChronoUnit.SECONDS,
            retryOn = {LibrarianUnavailable.class, ProcessingException.class})
    void submit(@HeaderParam("X-API-Key") String apiKey, JsonNode draft);

    /** Every answer other than 2xx becomes a {@link LibrarianAnswer}, carrying the status and the start of the body. */
    @ClientExceptionMapper
    static RuntimeException toException(Response response) {
        String body = response.hasEntity() ? response.readEntity(String.class) : "";
        return response.getStatus() >= 500 ? new LibrarianUnavailable(response.getStatus(), body)
                : new LibrarianAnswer(response.getStatus(), body);
    }

    /** The librarian answered with an error: {@code status} and at most 300 characters of its body. */
    class LibrarianAnswer extends RuntimeException {
        private final int status;

        LibrarianAnswer(int status, String body) {
            super(status + ": " + (body.length() <= 300 ? body : body.substring(0, 300) + "…"), null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** A 5xx: the librarian failed, not the draft; worth another try. */
    class LibrarianUnavailable extends LibrarianAnswer {
        LibrarianUnavailable(int status, String body) {
            super(status, body);
        }
    }
}
