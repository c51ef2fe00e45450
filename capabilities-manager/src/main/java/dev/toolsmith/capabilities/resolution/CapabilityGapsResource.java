package dev.toolsmith.capabilities.resolution;

import dev.toolsmith.eventing.rest.Paging;
import dev.toolsmith.eventing.security.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Read-only view of the capability gaps, for the UI. The plugins themselves (GET /plugins, /plugins/{id},
 * with health, policy and usage) are served by {@link dev.toolsmith.capabilities.health.PluginsResource}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class CapabilityGapsResource {

    private final CapabilityGaps gaps;

    public CapabilityGapsResource(CapabilityGaps gaps) {
        this.gaps = gaps;
    }

    @GET
    @Path("gaps")
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "Verbs nothing could serve, most frequent first")
    public Uni<List<CapabilityGaps.GapCount>> gaps(@QueryParam("limit") @DefaultValue("100") int limit) {
        return gaps.list(Paging.limit("limit", limit, 1_000));
    }
}
