package dev.toolsmith.librarian.airlock.draft;

import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Find-or-build drafts from the engineer: for a capability gap no source could fill, the tool manifest
 * its LLM drafted enters the review queue as a candidate of its own kind (no source, tagged with the gap).
 * Only Toolsmith services may file drafts (role {@code service}; a service acting for a person holds only
 * that person's admin/viewer roles, so the airlock UI cannot). A draft is never approved.
 */
@Path("/tools/pending/drafts")
@Tag(name = "Airlock: review", description = "Approve with a usage policy, or reject with a reason")
@Produces(MediaType.APPLICATION_JSON)
public class DraftResource {

    private final DraftIntake intake;
    private final DraftQueue queue;
    private final SecurityIdentity identity;

    public DraftResource(DraftIntake intake, DraftQueue queue, SecurityIdentity identity) {
        this.intake = intake;
        this.queue = queue;
        this.identity = identity;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.SERVICE)
    @Operation(summary = "File an LLM draft for a capability gap (engineer only)", description = "Idempotent per"
            + " gap: the same draft again changes nothing, a changed one replaces the undecided draft. The draft"
            + " waits for review like any candidate but can only be rejected: it has no HTTP binding.")
    @APIResponse(responseCode = "201", description = "A new draft (or the next revision after a decision) was filed",
            content = @Content(schema = @Schema(implementation = DraftQueue.Filed.class)))
    @APIResponse(responseCode = "200", description = "The gap's draft was already filed (UNCHANGED) or replaced (UPDATED)",
            content = @Content(schema = @Schema(implementation = DraftQueue.Filed.class)))
    @APIResponse(responseCode = "400", description = "A missing field or a manifest that fails the checks",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Response> file(DraftRequest request) {
        DraftIntake.ValidDraft draft = intake.check(request);
        String actor = identity.getPrincipal().getName();
        return queue.file(draft, actor).map(filed -> Response
                .status(filed.outcome() == DraftQueue.Outcome.CREATED ? Response.Status.CREATED : Response.Status.OK)
                .entity(filed).build());
    }
}
