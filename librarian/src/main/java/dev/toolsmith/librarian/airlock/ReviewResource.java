package dev.toolsmith.librarian.airlock;

import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The review queue: candidates that sources offer, waiting for an admin's decision. Approval takes a
 * usage policy whose secrets are plaintext on the way in and are encrypted at once; responses only ever
 * name them.
 */
@Path("/tools/pending")
@Tag(name = "Airlock: review", description = "Approve with a usage policy, or reject with a reason")
@Produces(MediaType.APPLICATION_JSON)
public class ReviewResource {

    static final int MAX_PAGE_SIZE = 200;
    static final int MAX_BULK = 500;

    private final ReviewQueries queries;
    private final ReviewService review;
    private final SecurityIdentity identity;

    public ReviewResource(ReviewQueries queries, ReviewService review, SecurityIdentity identity) {
        this.queries = queries;
        this.review = review;
        this.identity = identity;
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Page through the queue, newest change first")
    @APIResponse(responseCode = "400", description = "An unknown filter value or a bad page",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CandidateViews.Page> list(
            @Parameter(description = "source id") @QueryParam("source") UUID source,
            @Parameter(description = "comma-separated statuses (default PENDING,BUILD_FAILED); ALL for every one")
            @QueryParam("status") String status,
            @Parameter(description = "READ_ONLY, WRITE_LOCAL, WRITE_REMOTE or DESTRUCTIVE (the effective risk)")
            @QueryParam("risk") String risk,
            @Parameter(description = "normalised verb of a capability gap the candidate was matched to")
            @QueryParam("gap") String gap,
            @QueryParam("page") @DefaultValue("0") int page,
            @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, MAX_PAGE_SIZE);
        String riskFilter = risk == null || risk.isBlank() ? null : ReviewService.parseRisk(risk).name();
        String gapFilter = gap == null || gap.isBlank() ? null : gap.trim();
        return queries.list(new ReviewQueries.Filter(source, statuses(status), riskFilter, gapFilter), page, size);
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "One candidate in full: manifest, risk, diff against the approved revision, gaps, build report")
    @APIResponse(responseCode = "404", content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CandidateViews.Details> get(@PathParam("id") UUID id) {
        return queries.details(id);
    }

    @POST
    @Path("{id}/approve")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Approve with a usage policy", description = "Publishes tool-approved for the engineer."
            + " Secrets in policy.secrets are encrypted before anything is stored or published.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CandidateViews.Details.class)))
    @APIResponse(responseCode = "400", description = "Invalid policy or risk, or a secret the tool needs is missing",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "409", description = "Already decided; refused for a collision (its verb or id is"
            + " an internal plugin's, or its verb is served by another tool); or it replaces a tool in service and"
            + " confirmReplace does not name that tool (the error names it and its source)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CandidateViews.Details> approve(@PathParam("id") UUID id, ReviewRequests.Approve request) {
        ReviewRequests.Approve body = request == null ? new ReviewRequests.Approve(null, null, null, null) : request;
        return review.approve(id, body.policy(), body.riskOverride(), body.confirmReplace(),
                Boolean.TRUE.equals(body.acceptUnlimited()), actor())
                .chain(() -> queries.details(id));
    }

    @POST
    @Path("{id}/reject")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Reject with a reason (required)")
    @APIResponse(responseCode = "400", description = "No reason",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CandidateViews.Details> reject(@PathParam("id") UUID id, ReviewRequests.Reject request) {
        return review.reject(id, request == null ? null : request.reason(), actor()).chain(() -> queries.details(id));
    }

    @POST
    @Path("approve")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Approve many with one policy; each id succeeds or fails on its own",
            description = "A candidate that replaces a tool in service is not approved in bulk: its outcome says so;"
                    + " approve it on its own with confirmReplace.")
    public Uni<List<ReviewRequests.BulkOutcome>> approveAll(ReviewRequests.BulkApprove request) {
        List<UUID> ids = ids(request == null ? null : request.ids());
        String actor = actor();
        return Multi.createFrom().iterable(ids).onItem().transformToUniAndConcatenate(id -> Uni.createFrom()
                .deferred(() -> review.approve(id, request.policy(), request.riskOverride(), null,
                        Boolean.TRUE.equals(request.acceptUnlimited()), actor)).map(c -> new ReviewRequests.BulkOutcome(id, true,
                        c.status, null))
                .onFailure().recoverWithItem(e -> new ReviewRequests.BulkOutcome(id, false, null, message(e))))
                .collect().asList();
    }

    @POST
    @Path("reject")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Reject many with one reason; each id succeeds or fails on its own")
    public Uni<List<ReviewRequests.BulkOutcome>> rejectAll(ReviewRequests.BulkReject request) {
        List<UUID> ids = ids(request == null ? null : request.ids());
        String reason = request.reason();
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("reason: a rejection needs a reason");
        }
        String actor = actor();
        return Multi.createFrom().iterable(ids).onItem().transformToUniAndConcatenate(id -> Uni.createFrom()
                .deferred(() -> review.reject(id, reason, actor)).map(c -> new ReviewRequests.BulkOutcome(id, true, c.status, null))
                .onFailure().recoverWithItem(e -> new ReviewRequests.BulkOutcome(id, false, null, message(e))))
                .collect().asList();
    }

    private static List<UUID> ids(List<UUID> ids) {
        if (ids == null || ids.isEmpty()) {
            throw new IllegalArgumentException("ids: at least one id is required");
        }
        if (ids.size() > MAX_BULK) {
            throw new IllegalArgumentException("ids: at most " + MAX_BULK + " per request");
        }
        return ids.stream().distinct().toList();
    }

    private static String message(Throwable e) {
        if (e instanceof WebApplicationException web && web.getResponse().getStatus() == 404) {
            return e.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    static Set<CandidateStatus> statuses(String text) {
        if (text == null || text.isBlank()) {
            return EnumSet.of(CandidateStatus.PENDING, CandidateStatus.BUILD_FAILED);
        }
        if (text.trim().equalsIgnoreCase("all")) {
            return EnumSet.allOf(CandidateStatus.class);
        }
        Set<CandidateStatus> statuses = EnumSet.noneOf(CandidateStatus.class);
        for (String part : Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList()) {
            statuses.add(CandidateStatus.parse(part).orElseThrow(() -> new IllegalArgumentException("status: '" + part
                    + "' is not one of " + Arrays.toString(CandidateStatus.values()).toUpperCase(Locale.ROOT))));
        }
        return statuses;
    }

    private String actor() {
        return identity.getPrincipal().getName();
    }
}
