package dev.toolsmith.ui.security.oidc;

import io.quarkus.arc.Unremovable;
import io.quarkus.oidc.common.OidcEndpoint;
import io.quarkus.oidc.common.OidcResponseFilter;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Tells a failing token endpoint from a refusing one. quarkus-oidc reports both as the same exception, without the
 * status; a 5xx is the provider's fault (502 to the user, "try again later"), a 4xx a refusal of this code (401).
 */
@ApplicationScoped
@Unremovable // looked up by quarkus-oidc, injected nowhere: ArC would remove it
@OidcEndpoint(OidcEndpoint.Type.TOKEN)
public class TokenEndpointFailures implements OidcResponseFilter {

    @Override
    public void filter(OidcResponseContext response) {
        if (response.statusCode() >= 500) {
            throw new ProviderFailure(response.statusCode());
        }
    }
}
