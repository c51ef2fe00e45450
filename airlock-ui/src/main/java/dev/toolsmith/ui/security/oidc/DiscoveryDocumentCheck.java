package dev.toolsmith.ui.security.oidc;

import io.quarkus.arc.Unremovable;
import io.quarkus.oidc.common.OidcEndpoint;
import io.quarkus.oidc.common.OidcResponseFilter;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Refuses a discovery document without the endpoints a sign-in needs (OAuth metadata makes some optional).
 * quarkus-oidc would accept it and send the browser to {@code null?response_type=code…}; failing the discovery
 * keeps the tenant unready instead, and {@link OidcSignInFailures} shows the admin this message with a 502.
 */
@ApplicationScoped
@Unremovable // looked up by quarkus-oidc as a filter
@OidcEndpoint(OidcEndpoint.Type.DISCOVERY)
public class DiscoveryDocumentCheck implements OidcResponseFilter {

    private static final Logger LOG = Logger.getLogger(DiscoveryDocumentCheck.class);
    private static final List<String> REQUIRED = List.of("authorization_endpoint", "token_endpoint", "jwks_uri");

    private volatile String problem;

    @Override
    public void filter(OidcResponseContext response) {
        if (response.statusCode() != 200 || response.responseBody() == null) {
            return; // quarkus-oidc reports a failed fetch itself
        }
        List<String> missing = missingEndpoints(response.responseBody().toString());
        if (missing.isEmpty()) {
            problem = null;
            return;
        }
        problem = "the identity provider's discovery document lacks " + String.join(", ", missing)
                + ", so sign-in cannot work; ask an administrator to check the provider";
        LOG.warnf("OIDC discovery document lacks %s", String.join(", ", missing));
        throw new IllegalStateException(problem);
    }

    /** Why the last discovery was refused, if it was. */
    Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    static List<String> missingEndpoints(String document) {
        JsonObject json;
        try {
            json = new JsonObject(document);
        } catch (RuntimeException e) {
            return List.of("everything (it is not JSON)");
        }
        List<String> missing = new ArrayList<>();
        for (String endpoint : REQUIRED) {
            if (!(json.getValue(endpoint) instanceof String value) || value.isBlank()) {
                missing.add(endpoint);
            }
        }
        return missing;
    }
}
