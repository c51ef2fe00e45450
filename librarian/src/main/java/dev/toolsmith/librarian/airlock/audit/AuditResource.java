package dev.toolsmith.librarian.airlock.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import dev.toolsmith.librarian.airlock.PageLimit;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The airlock's audit trail: every source change, decision, policy change and suspension. */
@Path("/audit")
@Tag(name = "Airlock: audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** One entry; before/after hold secrets by name only. */
    public record Entry(UUID id, OffsetDateTime at, String actor, String action, String subjectType, String subjectId,
            String summary, JsonNode before, JsonNode after) {
    }

    /** A page of entries, newest first. */
    public record EntryPage(List<Entry> items, int page, int size, long total) {
    }

    private final ContractCodec codec;

    public AuditResource(ContractCodec codec) {
        this.codec = codec;
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Page through the audit log, newest first",
            description = "Filters: actor, action (SOURCE_CREATED, SOURCE_UPDATED, SOURCE_DELETED, APPROVED, REJECTED,"
                    + " POLICY_CHANGED, SUSPENDED, DRAFT_FILED, REPLACED, CATALOGED, CATALOG_ACCESS_CHANGED,"
                    + " CATALOG_STATUS_CHANGED, RETIRED, BUILD_REFUSED, BULK_APPROVED, BULK_REJECTED, SIGN_IN_LOCKED,"
                    + " SIGN_IN_UNLOCKED, HEALTH_THRESHOLDS_CHANGED), subjectType (source,"
                    + " candidate, tool, review-queue, sign-in), subjectId, from/to"
                    + " (ISO-8601 instants).")
    public Uni<EntryPage> list(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("subjectType") String subjectType, @QueryParam("subjectId") String subjectId,
            @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("page") @DefaultValue("0") int page, @QueryParam("size") @DefaultValue("50") int size) {
        Paging.check(page, size, PageLimit.MAX_PAGE_SIZE);
        StringBuilder where = new StringBuilder("1 = 1");
        Parameters params = new Parameters();
        if (actor != null && !actor.isBlank()) {
            where.append(" and actor = :actor");
            params.and("actor", actor.trim());
        }
        if (action != null && !action.isBlank()) {
            String wanted = action.trim().toUpperCase(Locale.ROOT);
            if (Arrays.stream(AuditLog.Action.values()).noneMatch(a -> a.name().equals(wanted))) {
                throw new IllegalArgumentException("action: '" + action + "' is not one of "
                        + Arrays.toString(AuditLog.Action.values()));
            }
            where.append(" and action = :action");
            params.and("action", wanted);
        }
        if (subjectType != null && !subjectType.isBlank()) {
            where.append(" and subjectType = :subjectType");
            params.and("subjectType", subjectType.trim());
        }
        if (subjectId != null && !subjectId.isBlank()) {
            where.append(" and subjectId = :subjectId");
            params.and("subjectId", subjectId.trim());
        }
        if (from != null && !from.isBlank()) {
            where.append(" and at >= :from");
            params.and("from", instant("from", from));
        }
        if (to != null && !to.isBlank()) {
            where.append(" and at < :to");
            params.and("to", instant("to", to));
        }
        String query = where + " order by at desc, id";
        return Panache.withSession(() -> AuditEntity.<AuditEntity>find(query, params).page(Page.of(page, size)).list()
                .chain(rows -> AuditEntity.count(where.toString(), params).map(total -> new EntryPage(
                        rows.stream().map(this::entry).toList(), page, size, total))));
    }

    private Entry entry(AuditEntity row) {
        return new Entry(row.id, row.at, row.actor, row.action, row.subjectType, row.subjectId, row.summary,
                read(row.beforeState), read(row.afterState));
    }

    private JsonNode read(String json) {
        return json == null ? null : codec.parse(json);
    }

    private static OffsetDateTime instant(String field, String text) {
        try {
            return OffsetDateTime.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": '" + text + "' is not an ISO-8601 date-time"
                    + " (e.g. 2026-01-31T12:00:00Z)");
        }
    }
}
