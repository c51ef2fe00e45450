package dev.toolsmith.capabilities.registry;

import dev.toolsmith.eventing.rest.ApiError;
import dev.toolsmith.eventing.security.Roles;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** Learned verb aliases: visible to readers, removable by admins (the next step with the verb searches again). */
@Path("/aliases")
@Produces(MediaType.APPLICATION_JSON)
public class AliasResource {

    private final AliasBook aliases;

    public AliasResource(AliasBook aliases) {
        this.aliases = aliases;
    }

    @GET
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.PLANNER, Roles.SERVICE})
    @Operation(summary = "Verbs learned from confident substitutions, and the tool each runs")
    public Uni<List<Alias>> list() {
        return aliases.list();
    }

    @DELETE
    @Path("{verb}")
    @RolesAllowed({Roles.ADMIN})
    @Operation(summary = "Forget a learned verb (any spelling: CONVERT_CURRENCY, convertCurrency)")
    public Uni<Response> forget(@PathParam("verb") String verb) {
        return aliases.forget(verb).map(deleted -> deleted ? Response.noContent().build()
                : Response.status(404).type(MediaType.APPLICATION_JSON)
                        .entity(ApiError.of(404, "no learned alias for verb '" + verb + "'")).build());
    }
}
