package dev.toolsmith.eventing;

import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.TreeSet;

/** Endpoints that exist only to exercise the shared security and error mapping in tests. */
@Path("/probe")
public class SecuredProbeResource {

    private final SecurityIdentity identity;
    private final ContractCodec codec;

    public SecuredProbeResource(SecurityIdentity identity, ContractCodec codec) {
        this.identity = identity;
        this.codec = codec;
    }

    @GET
    @Path("/admin")
    @RolesAllowed("admin")
    public String adminOnly() {
        return describe();
    }

    @GET
    @Path("/read")
    @RolesAllowed({"admin", "viewer"})
    public String read() {
        return describe();
    }

    @POST
    @Path("/steps")
    @RolesAllowed("planner")
    public String submit(String body) {
        return codec.read(body, PlanStep.class).stepId();
    }

    /** A typed body, as most endpoints take: Jackson binds it before the method runs. */
    public record Order(String name, java.util.List<Line> lines) {
    }

    public record Line(String sku, int quantity) {
    }

    @POST
    @Path("/orders")
    @RolesAllowed("planner")
    @jakarta.ws.rs.Consumes("application/json")
    public String order(Order order) {
        return order.name();
    }

    /** Typed query and path parameters, as the services' listings and look-ups take them. */
    @GET
    @Path("/items/{id}")
    @RolesAllowed("planner")
    public String item(@jakarta.ws.rs.PathParam("id") String id,
            @jakarta.ws.rs.QueryParam("namespace") String namespace,
            @jakarta.ws.rs.QueryParam("page") @jakarta.ws.rs.DefaultValue("0") int page,
            @jakarta.ws.rs.QueryParam("size") Integer size,
            @jakarta.ws.rs.QueryParam("waitMs") @jakarta.ws.rs.DefaultValue("0") long waitMs,
            @jakarta.ws.rs.QueryParam("source") java.util.UUID source) {
        return id.length() + " " + namespace + " " + page + " " + size + " " + waitMs + " " + source;
    }

    public record Ids(java.util.List<java.util.UUID> ids, java.time.Instant at) {
    }

    @POST
    @Path("/ids")
    @RolesAllowed("planner")
    @jakarta.ws.rs.Consumes("application/json")
    public String ids(Ids ids) {
        return String.valueOf(ids.ids());
    }

    private String describe() {
        return identity.getPrincipal().getName() + " " + new TreeSet<>(identity.getRoles());
    }
}
