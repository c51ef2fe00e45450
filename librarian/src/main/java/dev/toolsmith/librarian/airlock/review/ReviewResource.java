package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.airlock.ListOrder;
import dev.toolsmith.librarian.airlock.PageLimit;
import dev.toolsmith.librarian.airlock.SearchText;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import dev.toolsmith.librarian.airlock.candidate.CandidateStatus;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    static final int MAX_BULK = 500;
    /** A decision by filter covers at most this many tools (one transaction each, within the UI's 30 s). */
    static final int MAX_BULK_BY_FILTER = 1000;

    private final ReviewQueries queries;
    private final ReviewService review;
    private final AuditLog audit;
    private final SecurityIdentity identity;
    private final PolicyChanges policyChanges;

    public ReviewResource(ReviewQueries queries, ReviewService review, AuditLog audit, SecurityIdentity identity,
            PolicyChanges policyChanges) {
        this.policyChanges = policyChanges;
        this.queries = queries;
        this.review = review;
        this.audit = audit;
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
            @Parameter(description = "text found (case-insensitively) in the verb, name, tool id, operation or source name;"
                    + " at most 200 characters")
            @QueryParam("q") String q,
            @Parameter(description = "updated, discovered, verb, name, tool, status, risk (by severity) or source;"
                    + " a leading - sorts descending (default -updated)")
            @QueryParam("sort") String sort,
            @QueryParam("page") @DefaultValue("0") int page,
            @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, PageLimit.MAX_PAGE_SIZE);
        String orderBy = ListOrder.orderBy(sort, ReviewQueries.DEFAULT_SORT, ReviewQueries.SORTS);
        return queries.list(filter(new ReviewRequests.QueueFilter(source, status, risk, gap, q)), orderBy, page, size);
    }

    static ReviewQueries.Filter filter(ReviewRequests.QueueFilter f) {
        String riskFilter = f.risk() == null || f.risk().isBlank() ? null : ReviewService.parseRisk(f.risk()).name();
        String gapFilter = f.gap() == null || f.gap().isBlank() ? null : f.gap().trim();
        return new ReviewQueries.Filter(f.source(), statuses(f.status()), riskFilter, gapFilter, SearchText.pattern(f.q()));
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

    @PUT
    @Path("{id}/policy")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Change the usage policy of an approved or active tool", description = "A new approval"
            + " version of the same definition, sealed and published on tool-approved; audited as POLICY_CHANGED."
            + " policy.secrets left out keeps the stored secrets.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = CandidateViews.Details.class)))
    @APIResponse(responseCode = "400", description = "Invalid policy (the pointer names the field)",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    @APIResponse(responseCode = "409", description = "Not approved or active, or the policy is already this one",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<CandidateViews.Details> changePolicy(@PathParam("id") UUID id, ReviewRequests.ChangePolicy request) {
        // a change says what the policy becomes: a missing one must not silently lift every limit
        if (request == null || request.policy() == null) {
            throw new ContractViolation("/policy", "field /policy: required (the whole new policy; {} for no limits)");
        }
        return policyChanges.change(id, request.policy(), Boolean.TRUE.equals(request.acceptUnlimited()), actor())
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
            description = "The listed ids, or every candidate a filter matches (the same filters as GET /tools/pending)"
                    + " when expectedCount equals their number (409 when it does not; at most 1000). A candidate that"
                    + " replaces a tool in service is not approved in bulk: its outcome says so; approve it on its own"
                    + " with confirmReplace.")
    @APIResponse(responseCode = "409", description = "The filter no longer matches expectedCount tools",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Object> approveAll(ReviewRequests.BulkApprove request) {
        if (request == null) {
            throw new IllegalArgumentException("ids: at least one id (or a filter) is required");
        }
        String actor = actor();
        return targets(request.ids(), request.filter(), request.expectedCount()).chain(ids -> decide(ids, id ->
                review.approve(id, request.policy(), request.riskOverride(), null,
                        Boolean.TRUE.equals(request.acceptUnlimited()), actor))
                .call(result -> auditByFilter(request.filter(), AuditLog.Action.BULK_APPROVED, "Approved", null, result, actor)))
                .map(result -> answer(request.filter(), result));
    }

    @POST
    @Path("reject")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Reject many with one reason; each id succeeds or fails on its own",
            description = "The listed ids, or every candidate a filter matches when expectedCount equals their number"
                    + " (as for approval).")
    @APIResponse(responseCode = "409", description = "The filter no longer matches expectedCount tools",
            content = @Content(schema = @Schema(implementation = ApiError.class)))
    public Uni<Object> rejectAll(ReviewRequests.BulkReject request) {
        if (request == null) {
            throw new IllegalArgumentException("ids: at least one id (or a filter) is required");
        }
        String reason = request.reason();
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("reason: a rejection needs a reason");
        }
        String actor = actor();
        return targets(request.ids(), request.filter(), request.expectedCount())
                .chain(ids -> decide(ids, id -> review.reject(id, reason, actor))
                        .call(result -> auditByFilter(request.filter(), AuditLog.Action.BULK_REJECTED,
                                "Rejected", reason.trim(), result, actor)))
                .map(result -> answer(request.filter(), result));
    }

    /**
     * The candidates a bulk decision covers: the listed ids, or every one the filter matches now, which must
     * be exactly the count the admin confirmed (else 409: the queue changed under them, and they should look
     * again rather than decide on tools they have not seen counted).
     */
    private Uni<List<UUID>> targets(List<UUID> listed, ReviewRequests.QueueFilter filter, Integer expectedCount) {
        if (filter == null) {
            return Uni.createFrom().item(ids(listed));
        }
        if (listed != null && !listed.isEmpty()) {
            throw new IllegalArgumentException("ids: send either ids or a filter, not both");
        }
        if (expectedCount == null || expectedCount < 1) {
            throw new IllegalArgumentException("expectedCount: the number of matching tools the admin confirmed is"
                    + " required with a filter (at least 1)");
        }
        if (expectedCount > MAX_BULK_BY_FILTER) {
            throw new IllegalArgumentException("expectedCount: at most " + MAX_BULK_BY_FILTER
                    + " tools per decision by filter; narrow the filter");
        }
        ReviewQueries.Filter where = filter(filter);
        return queries.ids(where, MAX_BULK_BY_FILTER + 1).map(ids -> {
            if (ids.size() != expectedCount) {
                throw new ClientErrorException("expectedCount: the filter now matches "
                        + (ids.size() > MAX_BULK_BY_FILTER ? "more than " + MAX_BULK_BY_FILTER : ids.size())
                        + " tools, not " + expectedCount + "; look at the list again", Response.Status.CONFLICT);
            }
            return ids;
        });
    }

    /** Listed ids are answered as before, one outcome per id; a decision by filter with its counts too. */
    private static Object answer(ReviewRequests.QueueFilter filter, ReviewRequests.BulkResult result) {
        return filter == null ? result.outcomes() : result;
    }

    /** Decides each id on its own, one after another; a failure is that id's outcome, not the request's. */
    private static Uni<ReviewRequests.BulkResult> decide(List<UUID> ids,
            java.util.function.Function<UUID, Uni<CandidateEntity>> decision) {
        return Multi.createFrom().iterable(ids).onItem().transformToUniAndConcatenate(id -> Uni.createFrom()
                .deferred(() -> decision.apply(id)).map(c -> new ReviewRequests.BulkOutcome(id, true, c.status, null))
                .onFailure().recoverWithItem(e -> new ReviewRequests.BulkOutcome(id, false, null, message(e))))
                .collect().asList().map(outcomes -> {
                    int done = (int) outcomes.stream().filter(ReviewRequests.BulkOutcome::done).count();
                    return new ReviewRequests.BulkResult(outcomes.size(), done, outcomes.size() - done, outcomes);
                });
    }

    /**
     * A decision by filter is audited once more as a whole (each candidate's own entry is written by its
     * approval or rejection): who decided on what filter, how many matched and how many went through.
     */
    private Uni<Void> auditByFilter(ReviewRequests.QueueFilter filter, AuditLog.Action action, String verb,
            String reason, ReviewRequests.BulkResult result, String actor) {
        if (filter == null) {
            return Uni.createFrom().voidItem();
        }
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("filter", filter);
        after.put("matched", result.matched());
        after.put("done", result.done());
        after.put("failed", result.failed());
        if (reason != null) {
            after.put("reason", reason);
        }
        return Panache.withTransaction(() -> audit.record(actor, action, "review-queue", "filter",
                verb + " " + result.done() + " of " + result.matched() + " matching tools"
                        + (reason == null ? "" : ": " + reason), null, after));
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
