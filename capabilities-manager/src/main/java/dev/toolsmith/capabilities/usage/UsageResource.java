package dev.toolsmith.capabilities.usage;

import dev.toolsmith.eventing.security.Roles;
import io.smallrye.common.annotation.Blocking;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;

/** Usage of every wrapped tool: calls, errors, denials, latency p50/p95 and spend, per tool and per caller. */
@Path("/usage")
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {

    private final UsageQueries queries;

    public UsageResource(UsageQueries queries) {
        this.queries = queries;
    }

    /** {@code period}: {@code day} (today, UTC) or {@code month} (this month, the default). */
    @GET
    @Blocking
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    public UsageOverview overview(@QueryParam("period") String period) {
        return queries.overview(UsagePeriod.parse(period, Instant.now()));
    }
}
