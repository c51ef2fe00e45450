package dev.toolsmith.ui.security;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The HTTP permission policy {@code airlock-roles} applied to {@code /api/*} (see application.properties):
 * anonymous callers are challenged (401), viewers attempting a change are denied (403).
 */
@ApplicationScoped
public class AirlockRolesPolicy implements HttpSecurityPolicy {

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext requestContext) {
        String method = request.request().method().name();
        String path = request.normalizedPath();
        return identity.map(id -> switch (ApiAccessRules.decide(UiIdentities.roleOf(id), method, path)) {
            case PERMIT -> CheckResult.PERMIT;
            // Denying an anonymous identity makes Quarkus send the form mechanism's challenge: 401.
            case UNAUTHENTICATED, FORBIDDEN -> CheckResult.DENY;
        });
    }

    @Override
    public String name() {
        return "airlock-roles";
    }
}
